"""Tensor creation: zeros/ones/fill (and ``_like``), range, linspace, eye, identity."""

import contextlib
import math

import jax
import jax.numpy as jnp
import numpy as np

from companion._core import _dtypes
from companion._core._convert import as_input, infer_dtype
from companion._core._dispatch import dispatch, elementwise_dispatch
from companion._core._errors import InvalidArgumentError
from companion._core._op import op
from companion._core._tensor import Tensor
from companion._core._tensor_names import given_name, named

__all__ = ["eye", "fill", "identity", "linspace", "ones", "ones_like", "range", "zeros", "zeros_like"]


def _static_shape(shape, what):
    if isinstance(shape, (int, np.integer)) or (hasattr(shape, "ndim") and shape.ndim == 0):
        shape = [shape]
    try:
        dims = tuple(int(d) for d in (np.asarray(shape) if isinstance(shape, Tensor) else shape))
    except TypeError:
        raise TypeError(f"{what}: shape must be a list of non-negative ints. Received: {shape!r}") from None
    if any(d < 0 for d in dims):
        raise InvalidArgumentError(f"{what}: shape dimensions must be non-negative. Received: {dims}")
    return dims


@op("fill", static=("shape", "dtype"))
def _full(value, shape, dtype):
    return jnp.full(shape, value, dtype=dtype)


def zeros(shape, dtype=_dtypes.float32, name=None):
    """A tensor of ``shape`` filled with zeros (float32 unless ``dtype`` says otherwise)."""
    dtype = _dtypes.as_dtype(dtype)
    return named(_full(as_input(0, dtype), shape=_static_shape(shape, "zeros"), dtype=dtype._np), "zeros")


def ones(shape, dtype=_dtypes.float32, name=None):
    """A tensor of ``shape`` filled with ones (float32 unless ``dtype`` says otherwise)."""
    dtype = _dtypes.as_dtype(dtype)
    return named(_full(as_input(1, dtype), shape=_static_shape(shape, "ones"), dtype=dtype._np), "ones")


def fill(dims, value, name=None):
    """A tensor of shape ``dims`` filled with ``value`` (whose dtype it takes)."""
    value = as_input(value)
    if value.dtype == _dtypes.string:  # strings live on the host (NumPy object arrays)
        return Tensor(np.full(_static_shape(dims, "fill"), np.asarray(value._value).item(), dtype=object))
    return _full(value, shape=_static_shape(dims, "fill"), dtype=value._v.dtype)


def zeros_like(input, dtype=None, name=None):  # noqa: A002 - TensorFlow's argument name
    """Zeros with the shape (and, unless ``dtype`` is given, the dtype) of ``input``."""
    ragged = dispatch("zeros_like", [input], input, dtype)
    if ragged is not NotImplemented:  # TF dispatches RaggedTensor arguments to tf.ragged's op
        return ragged
    input = as_input(input)
    return named(zeros(input.shape, dtype or input.dtype), "zeros_like")


def ones_like(input, dtype=None, name=None):  # noqa: A002
    """Ones with the shape (and, unless ``dtype`` is given, the dtype) of ``input``."""
    ragged = dispatch("ones_like", [input], input, dtype)
    if ragged is not NotImplemented:  # TF dispatches RaggedTensor arguments to tf.ragged's op
        return ragged
    input = as_input(input)
    return named(ones(input.shape, dtype or input.dtype), "ones_like")


def range(start, limit=None, delta=1, dtype=None, name="range"):  # noqa: A001
    """Numbers from ``start`` up to (not including) ``limit`` in steps of ``delta``.

    With one argument it counts from 0, like Python's ``range``. The dtype is inferred
    from the arguments (int32 for Python ints, float32 if any is a float).

    Example:
        >>> import companion as tf
        >>> print(tf.range(1, 10, 3))
        companion.Tensor([1 4 7], shape=(3,), dtype=int32)
    """
    if limit is None:
        start, limit = 0, start
    bounds = [np.asarray(b)[()] if isinstance(b, Tensor) else b for b in (start, limit, delta)]
    if dtype is None:
        kinds = [infer_dtype(b) for b in bounds]
        dtype = next((k for k in kinds if k.is_floating), max(kinds, key=lambda k: k.size))
    dtype = _dtypes.as_dtype(dtype)
    if bounds[2] == 0:
        raise InvalidArgumentError("range: delta must not be 0. Received: delta=0")
    size = max(0, math.ceil((bounds[1] - bounds[0]) / bounds[2]))
    # its bounds are known: a constant of a traced program too (as in TF's graph, where
    # tf.get_static_value reads it), unless it is too large to keep in the program
    folded = jax.ensure_compile_time_eval() if size <= _LARGEST_CONSTANT_RANGE else contextlib.nullcontext()
    with folded:
        return named(Tensor(jnp.arange(*bounds, dtype=dtype._np)), "range")


_LARGEST_CONSTANT_RANGE = 1 << 16


def linspace(start, stop, num, name=None, axis=0):
    """``num`` evenly spaced values from ``start`` to ``stop`` inclusive, in ``start``'s dtype (``stop``
    is converted to it, as TF's); integers give float64 (float32 for 8- and 16-bit ones), as TF's."""
    start = as_input(start)
    stop = as_input(stop, dtype=start.dtype)
    if not start.dtype.is_floating:
        start, stop = start.value() if start._is_variable else start, stop
        dtype = _dtypes.float32 if start.dtype.size <= 2 else _dtypes.float64
        start = Tensor(start._value.astype(dtype._np))
        stop = Tensor(stop._value.astype(dtype._np))
    return _linspace(start, stop, num=int(num), axis=int(axis))


@op("linspace", static=("num", "axis"))
def _linspace(start, stop, num, axis):
    return jnp.linspace(start, stop, num, axis=axis, dtype=start.dtype)


def eye(num_rows, num_columns=None, batch_shape=None, dtype=_dtypes.float32, name=None):
    """An identity matrix (or a batch of them)."""
    dtype = _dtypes.as_dtype(dtype)
    matrix = jnp.eye(int(num_rows), None if num_columns is None else int(num_columns), dtype=dtype._np)
    if batch_shape is not None:
        batch = _static_shape(batch_shape, "eye")
        matrix = jnp.broadcast_to(matrix, batch + matrix.shape)
    return Tensor(matrix)


@op("identity")
def _identity(x):
    # a traced input gets a value of its own, which a function's graph names ``Identity`` (TF's
    # node); XLA drops the copy
    return jnp.copy(x) if isinstance(x, jax.core.Tracer) else x


@elementwise_dispatch
def identity(input, name=None):  # noqa: A002
    """A tensor with the same value as ``input`` (for a Variable: its current value)."""
    x = as_input(input)
    if name is not None:
        given_name(name)
    return _identity(x)
