"""Static op arguments: axes, shapes and permutations turned into hashable Python ints and tuples.

Ops take these as static parameters (they key the compile caches), so they must be known
when an op is applied: Python ints and lists, NumPy arrays, `TensorShape`s and concrete
(not traced) integer tensors are accepted.
"""

import numpy as np

from companion._core._convert import is_tensor
from companion._core._errors import InvalidArgumentError
from companion._core._shape import TensorShape


def static_array(value, what):
    """``value`` (int, list, NumPy array, TensorShape or concrete tensor) as a NumPy int array."""
    if is_tensor(value) and value.is_traced:
        raise TypeError(f"{what} must be known when the function is traced, but it is a tensor "
                        "computed inside it. Pass Python ints or a list instead. "
                        f"Received: {value!s}")
    if isinstance(value, TensorShape):
        value = value.as_list()
    try:
        array = np.asarray(value)
    except ValueError:
        array = np.asarray(None)
    if array.size == 0:
        return array.astype(np.int64)
    if array.dtype.kind not in "iu" or isinstance(value, bool):
        raise TypeError(f"{what} must be an integer or a list of integers. Received: {value!r}")
    return array


def static_ints(value, what):
    """``value`` as a hashable tuple of Python ints (a single int gives a 1-tuple)."""
    if type(value) in (list, tuple) and all(type(v) is int for v in value):
        return tuple(value)  # the common case, without a NumPy round trip
    return tuple(int(v) for v in static_array(value, what).ravel())


def static_int(value, what):
    """``value`` (a Python/NumPy int or a concrete scalar integer tensor) as a Python int."""
    if type(value) is int:
        return value
    array = static_array(value, what)
    if array.ndim != 0:
        raise TypeError(f"{what} must be a single integer. Received: {value!r}")
    return int(array)


def normalize_axis(axis, rank, what, extra=0):
    """``axis`` as an int in ``[0, rank + extra)``; negative axes count from the end."""
    axis = static_int(axis, f"{what}: axis")
    bound = rank + extra
    if not -bound <= axis < bound:
        raise InvalidArgumentError(
            f"{what}: axis {axis} is out of range for a tensor of rank {rank}; expected an axis in "
            f"[{-bound}, {bound}). Count axes from 0, or from -1 for the last. Received: axis={axis}")
    return axis + bound if axis < 0 else axis


def normalize_axes(axis, rank, what):
    """``axis`` (None, an int or a list) as None or a sorted tuple of distinct axes."""
    if axis is None:
        return None
    axes = tuple(normalize_axis(a, rank, what) for a in static_ints(axis, f"{what}: axis"))
    if len(set(axes)) != len(axes):
        raise InvalidArgumentError(f"{what}: axis lists a dimension twice. Give each axis once. "
                                   f"Received: axis={axis!r}")
    return tuple(sorted(axes))
