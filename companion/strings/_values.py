"""Shared plumbing of the string ops: string tensors in, NumPy object arrays of ``bytes`` out.

String tensors hold NumPy object arrays of ``bytes``; XLA has no string type, so string ops run in
NumPy on values known when they are called (eagerly, or while a `function` is traced).
"""

import jax.numpy as jnp
import numpy as np

from companion._core import _dtypes
from companion._core._convert import as_input
from companion._core._errors import InvalidArgumentTypeError
from companion._core._tensor import Tensor


def strings_of(value, what):
    """``value`` (a string tensor, ``str``/``bytes`` or a nested list of them) as an object array."""
    tensor = as_input(value)
    if tensor.dtype != _dtypes.string:
        raise InvalidArgumentTypeError(f"{what} needs a string tensor. Received dtype {tensor.dtype.name}: "
                                       f"{tensor!s}. Convert numbers with companion.strings.as_string.")
    return np.asarray(tensor._value, dtype=object)


def numbers_of(value, what):
    """``value`` as a concrete NumPy array (numeric tensors inside `function` must be known then)."""
    tensor = as_input(value)
    if tensor.is_traced:
        raise TypeError(f"{what} needs a value known while tracing: companion's string tensors live in "
                        "NumPy, not in the compiled program. Call it eagerly, or on a tensor computed "
                        f"from constants. Received a traced tensor of shape {tensor.shape}.")
    return np.asarray(tensor._value)


def each(fn, array, otypes=object):
    """``fn`` applied to every element of ``array``; the result keeps the array's shape."""
    flat = [fn(item) for item in array.ravel()]
    out = np.empty(len(flat), dtype=otypes) if otypes is object else np.asarray(flat, dtype=otypes)
    if otypes is object:
        out[:] = flat
    return out.reshape(array.shape)


def string_tensor(array):
    """A string Tensor wrapping ``array`` (an object array of ``bytes``)."""
    return Tensor(np.asarray(array, dtype=object))


def number_tensor(array, dtype):
    """A numeric Tensor of ``dtype`` holding ``array``."""
    return Tensor(jnp.asarray(np.asarray(array, dtype=_dtypes.as_dtype(dtype)._np)))


def text(item):
    """An element as ``str`` (UTF-8, undecodable bytes replaced)."""
    return item.decode("utf-8", errors="replace") if isinstance(item, bytes) else str(item)
