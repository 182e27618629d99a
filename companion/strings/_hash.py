"""Hashing strings into buckets: `to_hash_bucket_fast` (FarmHash ``Fingerprint64``, as TF)."""

import numpy as np

from companion._core import _dtypes
from companion.strings._farmhash import fingerprint64
from companion.strings._values import each, number_tensor, strings_of


def to_hash_bucket_fast(input, num_buckets, name=None):  # noqa: A002 - TF's name
    """``Fingerprint64(s) % num_buckets`` for each string (int64), the same buckets as TF's.

    Example:
        >>> import companion as tf
        >>> print(tf.strings.to_hash_bucket_fast(tf.constant(["a", "b"]), 10))
        companion.Tensor([9 2], shape=(2,), dtype=int64)
    """
    buckets = int(getattr(num_buckets, "_value", num_buckets))
    if buckets < 1:
        raise ValueError(f"to_hash_bucket_fast needs num_buckets >= 1. Received: num_buckets={buckets}")
    strings = strings_of(input, "strings.to_hash_bucket_fast")
    hashed = each(lambda s: fingerprint64(s if isinstance(s, bytes) else str(s).encode()) % buckets, strings,
                  otypes=np.int64)
    return number_tensor(hashed, _dtypes.int64)
