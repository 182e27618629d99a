"""Selection ops: gather, gather_nd, boolean_mask, where, one_hot, slice and strided_slice.

Out-of-range indices are an `InvalidArgumentError` when the indices are concrete (eager), as on
TensorFlow's CPU (constant ones into a traced tensor: when the program runs the op); inside a
staged function traced indices select 0, as on TensorFlow's GPU, except in a dataset function
(TF runs those on the CPU): there a host check raises when the program runs (`_host_index_checks`).
"""

import builtins
import functools

import jax
import jax.numpy as jnp
import numpy as np

from companion._core import _dtypes
from companion._core._convert import as_input, binary_inputs, convert_to_tensor
from companion._core._dispatch import dispatch, elementwise_dispatch
from companion._core._errors import InvalidArgumentError, InvalidArgumentTypeError, RuntimeCheckError
from companion._core._op import op
from companion._core._tensor import Tensor
from companion._ops import _host_index_checks
from companion._ops._indexing import getitem
from companion._ops._static import normalize_axis, static_int, static_ints


@op("gather", static=("axis", "batch_dims"))
def _gather(params, indices, axis, batch_dims):
    take = functools.partial(_take, axis=axis - batch_dims)
    for _ in range(batch_dims):
        take = jax.vmap(take)
    return take(params, indices)


def _take(params, indices, axis):
    indices = jnp.where(indices < 0, params.shape[axis], indices)  # negative: out of range
    return jnp.take(params, indices, axis=axis, mode="fill", fill_value=0)


def gather(params, indices, validate_indices=None, axis=None, batch_dims=0, name=None):
    """Picks slices of ``params`` along ``axis`` at the positions in ``indices``.

    The result has shape ``params.shape[:axis] + indices.shape[batch_dims:] +
    params.shape[axis + 1:]``; the first ``batch_dims`` dimensions are shared batch
    dimensions of ``params`` and ``indices``. ``axis`` defaults to ``batch_dims``.

    Example:
        >>> import companion as tf
        >>> print(tf.gather(tf.constant([10, 20, 30]), [2, 0]))
        companion.Tensor([30 10], shape=(2,), dtype=int32)
    """
    ragged = dispatch("gather", [params, indices], params, indices, axis=axis, batch_dims=batch_dims)
    if ragged is not NotImplemented:  # TF dispatches RaggedTensor arguments to tf.ragged's op
        return ragged
    params, indices = as_input(params), _integer_input(indices, "gather")
    batch_dims = _batch_dims(batch_dims, indices, "gather")
    rank = params._v.ndim
    axis = normalize_axis(batch_dims if axis is None else axis, rank, "gather")
    if axis < batch_dims or params._v.shape[:batch_dims] != indices._v.shape[:batch_dims]:
        raise InvalidArgumentError(
            f"gather: with batch_dims={batch_dims}, axis must be >= batch_dims and params (shape "
            f"{params._v.shape}) and indices (shape {indices._v.shape}) must share their "
            f"first {batch_dims} dimensions. Received: axis={axis}")
    if not indices.is_traced:
        check = functools.partial(_check_range, limit=params._v.shape[axis], what="gather")
        indices = _host_index_checks.checked_now(indices, check, params.is_traced)
    elif _host_index_checks.active():
        limit = params._v.shape[axis]
        check = functools.partial(_check_range, limit=limit, what="gather")
        indices = Tensor(_host_index_checks.checked(indices._value, check,
                                                    lambda i: (i < 0) | (i >= limit)))
    return _gather(params, indices, axis=axis, batch_dims=batch_dims)


def _integer_input(indices, what):
    indices = as_input(indices)
    if not indices.dtype.is_integer:
        raise InvalidArgumentTypeError(f"{what}: indices must be an integer tensor (int32 or int64). "
                                       f"Received dtype {indices.dtype.name}: {indices!s}. Convert it "
                                       "with companion.cast.")
    return indices


def _batch_dims(batch_dims, indices, what):
    rank = indices._v.ndim
    value = static_int(batch_dims, f"{what}: batch_dims")
    if not -rank <= value <= rank:
        raise InvalidArgumentError(f"{what}: batch_dims must be in [{-rank}, {rank}] for indices of "
                                   f"rank {rank}. Received: batch_dims={batch_dims!r}")
    return value + rank if value < 0 else value


def _check_range(array, limit, what):
    """Raises for entries of the NumPy ``array`` outside ``[0, limit)``."""
    bad = (array < 0) | (array >= limit)
    if bad.any():
        where_bad = tuple(int(i) for i in np.argwhere(bad)[0])
        raise RuntimeCheckError(
            f"{what}: indices{list(where_bad)} = {array[where_bad]} is not in [0, {limit}). Every "
            f"index must point at an existing entry (0 to {limit - 1}); negative indices are not "
            "counted from the end.")


@op("gather_nd", static=("batch_dims",))
def _gather_nd(params, indices, batch_dims):
    pick = _pick
    for _ in range(batch_dims):
        pick = jax.vmap(pick)
    return pick(params, indices)


def _pick(params, indices):
    columns = [jnp.where(c < 0, d, c) for c, d in zip(jnp.moveaxis(indices, -1, 0), params.shape)]
    return params.at[tuple(columns)].get(mode="fill", fill_value=0)


def gather_nd(params, indices, batch_dims=0, name=None):
    """Picks elements (or slices) of ``params`` at the index vectors in the last axis of ``indices``.

    Example:
        >>> import companion as tf
        >>> print(tf.gather_nd(tf.constant([[1, 2], [3, 4]]), [[0, 1], [1, 0]]))
        companion.Tensor([2 3], shape=(2,), dtype=int32)
    """
    params, indices = as_input(params), _integer_input(indices, "gather_nd")
    batch_dims = static_int(batch_dims, "gather_nd: batch_dims")
    shape = params._v.shape[batch_dims:]
    depth = indices._v.shape[-1] if indices._v.ndim else None
    shared = params._v.shape[:batch_dims] == indices._v.shape[:batch_dims]
    if depth is None or depth > len(shape) or not 0 <= batch_dims < indices._v.ndim or not shared:
        raise InvalidArgumentError(
            f"gather_nd: the last dimension of indices (shape {indices._v.shape}) must be an index "
            f"vector of length at most {len(shape)} into params of shape {params._v.shape} "
            f"after the batch_dims={batch_dims} dimensions they share. Received: indices={indices!s}")
    if not indices.is_traced:
        check = functools.partial(_check_nd_range, shape=shape, depth=depth)
        indices = _host_index_checks.checked_now(indices, check, params.is_traced)
    elif _host_index_checks.active():
        check = functools.partial(_check_nd_range, shape=shape, depth=depth)
        limits = np.asarray(shape[:depth])
        indices = Tensor(_host_index_checks.checked(indices._value, check,
                                                    lambda i: (i < 0) | (i >= limits.astype(i.dtype))))
    return _gather_nd(params, indices, batch_dims=batch_dims)


def _check_nd_range(array, shape, depth):
    for k in range(depth):
        _check_range(array[..., k], shape[k], f"gather_nd (index component {k})")


# -- masks and conditions -----------------------------------------------------------------

@op("boolean_mask", static=("shape", "axis"))
def _boolean_mask(x, positions, shape, axis):
    return jnp.take(jnp.reshape(x, shape), positions, axis=axis)


def boolean_mask(tensor, mask, axis=None, name="boolean_mask"):
    """The entries of ``tensor`` where the bool ``mask`` is true (eager: the size depends on it).

    ``mask`` covers dimensions ``axis`` to ``axis + mask.ndim`` of ``tensor``, which are
    flattened into one dimension holding the selected entries.

    Example:
        >>> import companion as tf
        >>> print(tf.boolean_mask(tf.constant([1, 2, 3]), [True, False, True]))
        companion.Tensor([1 3], shape=(2,), dtype=int32)
    """
    tensor, mask = as_input(tensor), as_input(mask)
    if not mask.dtype.is_bool or mask.is_traced or mask._v.ndim == 0:
        raise TypeError("boolean_mask needs a concrete bool mask of rank >= 1 (its number of true "
                        "entries sets the result's shape, so it cannot be traced); inside a "
                        f"function use companion.where to select instead. Received: mask={mask!s}")
    shape, k = tensor._v.shape, mask._v.ndim
    axis = 0 if axis is None else normalize_axis(axis, len(shape), "boolean_mask")
    if shape[axis:axis + k] != mask._v.shape:
        raise InvalidArgumentError(
            f"boolean_mask: the mask's shape {mask._v.shape} must equal dimensions {axis} to "
            f"{axis + k - 1} of the tensor's shape {shape}. Give a mask that matches them.")
    flat = shape[:axis] + (int(np.prod(mask._v.shape)),) + shape[axis + k:]
    positions = Tensor(jnp.asarray(np.flatnonzero(np.asarray(mask))))
    return _boolean_mask(tensor, positions, shape=flat, axis=axis)


@op("where")
def _where(condition, x, y):
    return jnp.where(condition, x, y)


def where(condition, x=None, y=None, name=None):
    """With ``x`` and ``y``: picks from ``x`` where ``condition`` is true, else from ``y``.

    The three arguments broadcast together. With ``condition`` alone (eager only): the
    int64 coordinates of its true (non-zero) elements, one row per element.

    Example:
        >>> import companion as tf
        >>> print(tf.where([True, False], [1, 2], [10, 20]))
        companion.Tensor([ 1 20], shape=(2,), dtype=int32)
        >>> print(tf.where([[True, False], [False, True]]))
        companion.Tensor(
        [[0 0]
         [1 1]], shape=(2, 2), dtype=int64)
    """
    ragged = dispatch("where", [condition, x, y], condition, x, y)
    if ragged is not NotImplemented:  # TF dispatches RaggedTensor arguments to tf.ragged's op
        return ragged
    condition = as_input(condition)
    if x is None and y is None:
        return _coordinates(condition)
    if x is None or y is None:
        raise ValueError("where: pass both x and y (to select between them) or neither (to find the "
                         f"true elements). Received: x={x!r}, y={y!r}")
    if not condition.dtype.is_bool:
        raise TypeError(f"where: condition must be a bool tensor. Received dtype "
                        f"{condition.dtype.name}: {condition!s}. Compare it first, e.g. x > 0.")
    x, y = binary_inputs(x, y, "where")
    shapes = [t._v.shape for t in (condition, x, y)]
    try:
        np.broadcast_shapes(*shapes)
    except ValueError:
        raise InvalidArgumentError(f"where: condition, x and y must broadcast to one shape. Received "
                                   f"shapes {shapes[0]}, {shapes[1]} and {shapes[2]}.") from None
    return _where(condition, x, y)


def _coordinates(condition):
    if condition.is_traced:
        raise TypeError("where(condition) with no x and y returns as many rows as true elements, so "
                        "it needs a concrete condition; inside a function pass x and y instead.")
    return Tensor(jnp.asarray(np.argwhere(np.asarray(condition)).astype(np.int64)))


@op("one_hot", static=("depth", "axis"))
def _one_hot(indices, on, off, depth, axis):
    return jnp.where(jax.nn.one_hot(indices, depth, dtype=bool, axis=axis), on, off)


@elementwise_dispatch
def one_hot(indices, depth, on_value=None, off_value=None, axis=None, dtype=None, name=None):
    """One-hot vectors: ``on_value`` at each index, ``off_value`` elsewhere (all off if out of range).

    ``dtype`` defaults to the dtype of ``on_value``/``off_value``, else float32. The new
    dimension of size ``depth`` goes at ``axis`` (last by default).

    Example:
        >>> import companion as tf
        >>> print(tf.one_hot([0, 2], depth=3))
        companion.Tensor(
        [[1. 0. 0.]
         [0. 0. 1.]], shape=(2, 3), dtype=float32)
    """
    indices = _integer_input(indices, "one_hot")
    on, off = _on_off_values(on_value, off_value, dtype)
    depth = static_int(depth, "one_hot: depth")
    if depth < 0:
        raise InvalidArgumentError(f"one_hot: depth must be non-negative. Received: depth={depth}")
    axis = normalize_axis(-1 if axis is None else axis, indices._v.ndim, "one_hot", extra=1)
    return _one_hot(indices, on, off, depth=depth, axis=axis)


def _on_off_values(on_value, off_value, dtype):
    hint = None if dtype is None else _dtypes.as_dtype(dtype)
    values = [None if v is None else convert_to_tensor(v, dtype_hint=hint) for v in (on_value, off_value)]
    given = [v.dtype for v in values if v is not None]
    dtype = hint or (given[0] if given else _dtypes.float32)
    if any(g != dtype for g in given):
        raise TypeError(f"one_hot: on_value and off_value must have the dtype {dtype.name}. Received "
                        f"dtypes {[g.name for g in given]}; cast them, or pass matching values.")
    defaults = (as_input(1, dtype), as_input(0, dtype))
    return tuple(d if v is None else v for v, d in zip(values, defaults))


# -- slicing ------------------------------------------------------------------------------

@op("slice", static=("start", "limit"))
def _slice(x, start, limit):
    return jax.lax.slice(x, start, limit)


def slice(input_, begin, size, name=None):  # noqa: A001 - TensorFlow's public name
    """The block of ``input_`` starting at ``begin`` with shape ``size`` (-1: up to the end).

    Example:
        >>> import companion as tf
        >>> print(tf.slice(tf.constant([[1, 2, 3], [4, 5, 6]]), [0, 1], [2, -1]))
        companion.Tensor(
        [[2 3]
         [5 6]], shape=(2, 2), dtype=int32)
    """
    input_ = as_input(input_)
    shape = input_._v.shape
    start, sizes = static_ints(begin, "slice: begin"), static_ints(size, "slice: size")
    if len(start) != len(shape) or len(sizes) != len(shape):
        raise InvalidArgumentError(f"slice: begin and size need one entry per dimension of the tensor "
                                   f"of shape {shape}. Received: begin={begin!r}, size={size!r}")
    sizes = tuple(d - b if s == -1 else s for b, s, d in zip(start, sizes, shape))
    for i, (b, s, d) in enumerate(zip(start, sizes, shape)):
        if not (0 <= b <= d and 0 <= s <= d - b):
            raise RuntimeCheckError(
                f"slice: expected begin[{i}] in [0, {d}] and size[{i}] in [0, {d - max(b, 0)}] (or -1) for "
                f"the tensor of shape {shape}, but got begin[{i}]={b}, size[{i}]={s}.")
    return _slice(input_, start=start, limit=tuple(b + s for b, s in zip(start, sizes)))


def strided_slice(input_, begin, end, strides=None, begin_mask=0, end_mask=0, ellipsis_mask=0,
                  new_axis_mask=0, shrink_axis_mask=0, name=None):
    """``input_[begin:end:strides]`` with TensorFlow's bit masks (bit ``i`` refers to entry ``i``).

    ``begin_mask``/``end_mask`` ignore that begin/end, ``ellipsis_mask`` puts ``...``,
    ``new_axis_mask`` puts ``None`` (a new axis), ``shrink_axis_mask`` takes the single
    index ``begin[i]``. Python indexing (``x[1:, ::2]``) is usually clearer.
    """

    begin, end = static_ints(begin, "strided_slice: begin"), static_ints(end, "strided_slice: end")
    strides = (1,) * len(begin) if strides is None else static_ints(strides, "strided_slice: strides")
    if not len(begin) == len(end) == len(strides):
        raise InvalidArgumentError("strided_slice: begin, end and strides must have one length. "
                                   f"Received: begin={begin}, end={end}, strides={strides}")
    masks = [int(m) for m in (begin_mask, end_mask, ellipsis_mask, new_axis_mask, shrink_axis_mask)]
    key = tuple(_slice_entry(i, begin[i], end[i], strides[i], *masks) for i in range(len(begin)))
    return getitem(as_input(input_), key)


def _slice_entry(i, begin, end, stride, begin_mask, end_mask, ellipsis, new_axis, shrink):
    bit = 1 << i
    if ellipsis & bit:
        return Ellipsis
    if new_axis & bit:
        return None
    if shrink & bit:
        return begin
    return builtins.slice(None if begin_mask & bit else begin, None if end_mask & bit else end, stride)
