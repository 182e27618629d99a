"""Where a SparseTensor's values sit: `reorder`, `reshape`, `transpose`, `expand_dims`, `concat`
(work on traced indices too), and `slice`, `retain`, `fill_empty_rows` (their result's size
depends on the indices' values: eager, or a SparseTensor built outside the function)."""

import numpy as np

from companion._core._convert import as_input, constant
from companion._core._errors import InvalidArgumentError
from companion._ops._array import concat as dense_concat
from companion._ops._array import reshape as dense_reshape
from companion._ops._array import stack
from companion._ops._reduce import reduce_sum
from companion._ops._select import boolean_mask, gather
from companion._ops._sort import argsort
from companion._ops._static import normalize_axis, static_ints
from companion.sparse._sparse_tensor import SparseTensor, as_sparse, host_indices


def _strides(shape):
    return np.cumprod([1] + list(shape)[::-1][:-1])[::-1].astype(np.int64) if len(shape) else \
        np.zeros(0, np.int64)


def _linear(indices, shape):
    """Row-major positions of ``indices`` (an int64 tensor) in a tensor of ``shape``."""
    if not len(shape):
        return constant(np.zeros(indices.shape[0], np.int64))
    return reduce_sum(indices * constant(_strides(shape)), axis=1)


def _unravel(linear, shape):
    columns = [(linear // int(stride)) % int(size) for stride, size in zip(_strides(shape), shape)]
    return stack(columns, axis=1) if columns else dense_reshape(linear[:0], [linear.shape[0], 0])


def reorder(sp_input, name=None):
    """The same SparseTensor with its entries in row-major (canonical) order.

    Example:
        >>> import companion as tf
        >>> sp = tf.sparse.reorder(tf.SparseTensor([[1, 0], [0, 1]], [5, 6], [2, 2]))
        >>> print(sp.values)
        companion.Tensor([6 5], shape=(2,), dtype=int32)
    """
    sp = as_sparse(sp_input, "sparse.reorder")
    if sp.indices.shape[0] < 2:
        return sp
    order = argsort(_linear(sp.indices, sp._shape), stable=True)
    return SparseTensor(gather(sp.indices, order), gather(sp.values, order), sp._shape)


def reshape(sp_input, shape, name=None):
    """The same values in a dense shape of as many elements (one ``-1`` is inferred)."""
    sp = as_sparse(sp_input, "sparse.reshape")
    new = list(static_ints(shape, "sparse.reshape: shape"))
    total = int(np.prod(sp._shape))
    if new.count(-1) > 1:
        raise InvalidArgumentError(f"sparse.reshape: at most one dimension may be -1. Received: {new}")
    if -1 in new:
        known = int(np.prod([d for d in new if d != -1]))
        if known == 0 or total % known:
            raise InvalidArgumentError(f"sparse.reshape: cannot infer -1 in {new} for {total} elements "
                                       f"(dense_shape {list(sp._shape)}).")
        new[new.index(-1)] = total // known
    if int(np.prod(new)) != total:
        raise InvalidArgumentError(f"sparse.reshape: a SparseTensor of dense_shape {list(sp._shape)} "
                                   f"({total} elements) cannot take shape {new}.")
    return SparseTensor(_unravel(_linear(sp.indices, sp._shape), new), sp.values, new)


def transpose(sp_input, perm=None, name=None):
    """Permutes the dimensions (reversed by default); the result is in row-major order."""
    sp = as_sparse(sp_input, "sparse.transpose")
    rank = len(sp._shape)
    perm = tuple(range(rank))[::-1] if perm is None else static_ints(perm, "sparse.transpose: perm")
    if sorted(perm) != list(range(rank)):
        raise InvalidArgumentError(f"sparse.transpose: perm must be a permutation of 0..{rank - 1}. "
                                   f"Received: {list(perm)}")
    indices = gather(sp.indices, constant(np.asarray(perm, np.int32)), axis=1)
    return reorder(SparseTensor(indices, sp.values, [sp._shape[p] for p in perm]))


def expand_dims(sp_input, axis=None, name=None):
    """Inserts a dimension of size 1 at ``axis`` (counted as for a tensor of one more dimension)."""
    sp = as_sparse(sp_input, "sparse.expand_dims")
    rank = len(sp._shape)
    axis = normalize_axis(-1 if axis is None else axis, rank, "sparse.expand_dims", extra=1)
    count = sp.indices.shape[0]
    zeros = constant(np.zeros((count, 1), np.int64))
    indices = dense_concat([sp.indices[:, :axis], zeros, sp.indices[:, axis:]], axis=1)
    return SparseTensor(indices, sp.values, list(sp._shape[:axis]) + [1] + list(sp._shape[axis:]))


def concat(axis, sp_inputs, expand_nonconcat_dims=False, name=None):
    """Joins SparseTensors along ``axis`` (their other dimensions must agree, or with
    ``expand_nonconcat_dims`` the largest is taken); the result is in row-major order."""
    inputs = [as_sparse(sp, "sparse.concat") for sp in sp_inputs]
    if not inputs:
        raise ValueError("sparse.concat needs at least one SparseTensor. Received an empty list.")
    rank = len(inputs[0]._shape)
    axis = normalize_axis(axis, rank, "sparse.concat")
    if any(len(sp._shape) != rank for sp in inputs):
        raise InvalidArgumentError(f"sparse.concat: every input must have rank {rank}. Received dense shapes "
                                   f"{[list(sp._shape) for sp in inputs]}")
    shape = [max(sp._shape[d] for sp in inputs) for d in range(rank)]
    if not expand_nonconcat_dims:
        for sp in inputs:
            if any(sp._shape[d] != shape[d] for d in range(rank) if d != axis):
                raise InvalidArgumentError(
                    f"sparse.concat: dimensions other than {axis} must agree. Received dense shapes "
                    f"{[list(sp._shape) for sp in inputs]} (pass expand_nonconcat_dims=True to pad them)")
    offsets = np.cumsum([0] + [sp._shape[axis] for sp in inputs[:-1]])
    shape[axis] = int(sum(sp._shape[axis] for sp in inputs))
    parts = []
    for sp, offset in zip(inputs, offsets):
        shift = np.zeros(rank, np.int64)
        shift[axis] = offset
        parts.append(sp.indices + constant(shift))
    values = dense_concat([sp.values for sp in inputs], axis=0)
    return reorder(SparseTensor(dense_concat(parts, axis=0), values, shape))


def slice(sp_input, start, size, name=None):  # noqa: A001 - TensorFlow's name
    """The entries in the box ``[start, start + size)``, re-indexed from ``start``; the box is
    clipped to the dense shape."""
    sp = as_sparse(sp_input, "sparse.slice")
    indices = host_indices(sp, "sparse.slice")
    start = np.asarray(static_ints(start, "sparse.slice: start"), np.int64)
    size = np.asarray(static_ints(size, "sparse.slice: size"), np.int64)
    if len(start) != len(sp._shape) or len(size) != len(sp._shape):
        raise InvalidArgumentError(f"sparse.slice: start and size need one entry per dimension "
                                   f"({len(sp._shape)}). Received start={start.tolist()}, "
                                   f"size={size.tolist()}")
    end = np.minimum(start + size, np.asarray(sp._shape, np.int64))
    inside = ((indices >= start) & (indices < end)).all(axis=1)
    rows = constant(np.flatnonzero(inside).astype(np.int64))
    return SparseTensor(indices[inside] - start, gather(sp.values, rows), np.maximum(end - start, 0))


def retain(sp_input, to_retain):
    """The entries where the boolean vector ``to_retain`` (one flag per value) is True."""
    sp = as_sparse(sp_input, "sparse.retain")
    keep = as_input(to_retain)
    if keep.shape.as_list() != [sp.indices.shape[0]]:
        raise InvalidArgumentError(f"sparse.retain: to_retain needs one flag per value "
                                   f"({sp.indices.shape[0]}). Received shape {keep.shape.as_list()}")
    return SparseTensor(boolean_mask(sp.indices, keep), boolean_mask(sp.values, keep), sp._shape)


def fill_empty_rows(sp_input, default_value, name=None):
    """Adds ``default_value`` at ``[row, 0, ...]`` for every row (index along dimension 0) without
    values. Returns ``(filled, empty_row_indicator)``, the indicator a bool vector per row."""
    sp = as_sparse(sp_input, "sparse.fill_empty_rows")
    indices = host_indices(sp, "sparse.fill_empty_rows")
    rows = sp._shape[0]
    empty = np.ones(rows, bool)
    empty[indices[:, 0]] = False
    added = np.zeros((int(empty.sum()), len(sp._shape)), np.int64)
    added[:, 0] = np.flatnonzero(empty)
    fill = as_input(default_value, sp.dtype)
    repeated = gather(dense_reshape(fill, [1]), constant(np.zeros(len(added), np.int32)))
    values = dense_concat([sp.values, repeated], axis=0)
    merged = SparseTensor(np.concatenate([indices, added]), values, sp._shape)
    return reorder(merged), constant(empty)
