"""``tf.distribute.experimental.partitioners``: how many shards a `ParameterServerStrategy` Variable gets.

A partitioner is called with a Variable's shape and dtype (and ``axis=0``) and returns the
number of shards along each axis (only ``axis`` may exceed 1), as TensorFlow's do.

Example:
    >>> import companion as tf
    >>> partitioners = tf.distribute.experimental.partitioners
    >>> partitioners.FixedShardsPartitioner(2)(tf.TensorShape([10, 3]), tf.float32)
    [2, 1]
    >>> partitioners.MinSizePartitioner(min_shard_bytes=96, max_shards=4)(tf.TensorShape([10, 3]), tf.float32)
    [2, 1]
    >>> partitioners.MaxSizePartitioner(max_shard_bytes=36)(tf.TensorShape([10, 3]), tf.float32)
    [4, 1]
"""

from __future__ import annotations

import math

from companion._core._dtypes import as_dtype


class Partitioner:
    """The base class: ``partitioner(shape, dtype, axis=0)`` -> shards per axis."""

    def __call__(self, shape, dtype, axis=0):
        raise NotImplementedError


class FixedShardsPartitioner(Partitioner):
    """``num_shards`` shards along ``axis`` (fewer if the axis is shorter)."""

    def __init__(self, num_shards):
        if isinstance(num_shards, bool) or not isinstance(num_shards, int) or num_shards < 1:
            raise ValueError(f"num_shards must be a positive integer. Received: num_shards={num_shards!r}")
        self._num_shards = num_shards

    def __call__(self, shape, dtype, axis=0):
        dims = _dims(shape, axis)
        result = [1] * len(dims)
        result[axis] = min(self._num_shards, dims[axis])
        return result


class MinSizePartitioner(Partitioner):
    """As many shards as keep each at least ``min_shard_bytes`` (rounded up), at most ``max_shards``."""

    def __init__(self, min_shard_bytes=256 << 10, max_shards=1, bytes_per_string=16):
        for name, value in (("min_shard_bytes", min_shard_bytes), ("max_shards", max_shards),
                            ("bytes_per_string", bytes_per_string)):
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise ValueError(f"{name} must be a positive integer. Received: {name}={value!r}")
        self._min, self._max, self._string = min_shard_bytes, max_shards, bytes_per_string

    def __call__(self, shape, dtype, axis=0):
        dims = _dims(shape, axis)
        total = math.prod(dims) * _element_bytes(dtype, self._string)
        result = [1] * len(dims)
        result[axis] = max(1, min(dims[axis], self._max, math.ceil(total / self._min)))
        return result


class MaxSizePartitioner(Partitioner):
    """As few shards as keep each at most ``max_shard_bytes`` (whole rows), at most ``max_shards``."""

    def __init__(self, max_shard_bytes, max_shards=None, bytes_per_string=16):
        if isinstance(max_shard_bytes, bool) or not isinstance(max_shard_bytes, int) or max_shard_bytes < 1:
            raise ValueError(f"max_shard_bytes must be a positive integer. Received: {max_shard_bytes!r}")
        if max_shards is not None and (isinstance(max_shards, bool) or not isinstance(max_shards, int)
                                       or max_shards < 1):
            raise ValueError(f"max_shards must be None or a positive integer. Received: {max_shards!r}")
        self._max_bytes, self._max, self._string = max_shard_bytes, max_shards, bytes_per_string

    def __call__(self, shape, dtype, axis=0):
        dims = _dims(shape, axis)
        row_bytes = math.prod(dims) // max(dims[axis], 1) * _element_bytes(dtype, self._string)
        rows_per_shard = max(1, self._max_bytes // max(row_bytes, 1))
        shards = math.ceil(dims[axis] / rows_per_shard)
        if self._max:
            shards = min(self._max, shards)
        result = [1] * len(dims)
        result[axis] = max(1, shards)
        return result


def _dims(shape, axis):
    dims = list(getattr(shape, "as_list", lambda: list(shape))())
    if any(d is None for d in dims):
        raise ValueError(f"A partitioner needs a fully known shape. Received: {dims}")
    if not 0 <= axis < len(dims):
        raise ValueError(f"axis {axis} is out of range for a Variable of shape {dims}.")
    return dims


def _element_bytes(dtype, bytes_per_string):
    dtype = as_dtype(dtype)
    return bytes_per_string if dtype.name == "string" else dtype.size


class partitioners:  # noqa: N801 (TF's namespace)
    """``tf.distribute.experimental.partitioners``."""

    Partitioner = Partitioner
    FixedShardsPartitioner = FixedShardsPartitioner
    MinSizePartitioner = MinSizePartitioner
    MaxSizePartitioner = MaxSizePartitioner
