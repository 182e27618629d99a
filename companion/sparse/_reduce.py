"""Reductions over a SparseTensor's values: `reduce_sum`, `reduce_max`, `softmax`.

Each groups the values by their indices in the dimensions that stay (a segment id per value)
and reduces them with a segment op, so they run inside `function` and tapes reach the values.
As in TF, `reduce_max` looks only at the values present (an empty group gives 0).
"""

import numpy as np

from companion._core._convert import constant
from companion._ops._array import reshape
from companion._ops._counting import unsorted_segment_max, unsorted_segment_sum
from companion._ops._math import exp
from companion._ops._reduce import reduce_max as dense_reduce_max
from companion._ops._reduce import reduce_sum as dense_reduce_sum
from companion._ops._select import gather, where
from companion._ops._static import normalize_axes
from companion.sparse._sparse_tensor import SparseTensor, as_sparse, host_indices


def _segments(sp, kept):
    """Per value, the row-major position of its index in the ``kept`` dimensions (int64 tensor)."""
    shape = [sp._shape[d] for d in kept]
    if not kept:
        return constant(np.zeros(sp.indices.shape[0], np.int64)), shape
    strides = np.cumprod([1] + shape[::-1][:-1])[::-1].astype(np.int64)
    columns = gather(sp.indices, constant(np.asarray(kept, np.int32)), axis=1)
    return dense_reduce_sum(columns * constant(strides), axis=1), shape


def _reduce(sp, axis, keepdims, output_is_sparse, what, segment_fn, whole_fn):
    rank = len(sp._shape)
    axes = tuple(range(rank)) if axis is None else normalize_axes(axis, rank, what)
    kept = [d for d in range(rank) if d not in axes]
    out_shape = [1 if d in axes else sp._shape[d] for d in range(rank)] if keepdims else \
        [sp._shape[d] for d in kept]
    if output_is_sparse:
        return _sparse_result(sp, kept, axes, keepdims, out_shape, segment_fn, what)
    if not kept:
        total = whole_fn(sp.values)
        return reshape(total, out_shape) if keepdims else total
    segments, shape = _segments(sp, kept)
    count = int(np.prod(shape))
    return reshape(segment_fn(sp.values, segments, count), out_shape)


def _sparse_result(sp, kept, axes, keepdims, out_shape, segment_fn, what):
    indices = host_indices(sp, what)
    shape = [sp._shape[d] for d in kept]
    strides = np.cumprod([1] + shape[::-1][:-1])[::-1].astype(np.int64) if kept else np.zeros(0, np.int64)
    linear = indices[:, kept] @ strides if kept else np.zeros(len(indices), np.int64)
    present, segments = np.unique(linear, return_inverse=True)
    values = segment_fn(sp.values, constant(segments.astype(np.int64)), len(present))
    kept_index = np.stack(np.unravel_index(present, shape), axis=1) if kept else \
        np.zeros((len(present), 0), np.int64)
    if keepdims:
        full = np.zeros((len(present), len(sp._shape)), np.int64)
        full[:, kept] = kept_index
        kept_index = full
    return SparseTensor(kept_index.astype(np.int64), values, out_shape)


def _sum_segments(values, segments, count):
    return unsorted_segment_sum(values, segments, count)


def _max_segments(values, segments, count):
    top = unsorted_segment_max(values, segments, count)
    filled = unsorted_segment_sum(values * 0 + 1, segments, count) > 0
    return where(filled, top, constant(np.zeros(count), dtype=values.dtype))


def _max_all(values):
    return dense_reduce_max(values) if values.shape[0] else constant(0, dtype=values.dtype)


def reduce_sum(sp_input, axis=None, keepdims=False, output_is_sparse=False, name=None):
    """The sum of ``sp_input``'s values over ``axis`` (all axes by default); a dense tensor, or with
    ``output_is_sparse`` a SparseTensor of the groups that hold values (eager only)."""
    sp = as_sparse(sp_input, "sparse.reduce_sum")
    return _reduce(sp, axis, keepdims, output_is_sparse, "sparse.reduce_sum", _sum_segments, dense_reduce_sum)


def reduce_max(sp_input, axis=None, keepdims=False, output_is_sparse=False, name=None):
    """The largest of ``sp_input``'s values present in each group over ``axis`` (TF's rule: the
    implicit zeros do not count; a group without values gives 0)."""
    sp = as_sparse(sp_input, "sparse.reduce_max")
    return _reduce(sp, axis, keepdims, output_is_sparse, "sparse.reduce_max", _max_segments, _max_all)


def softmax(sp_input, name=None):
    """Softmax over the last dimension, of the values present only (absent entries stay absent).

    Example:
        >>> import companion as tf
        >>> sp = tf.SparseTensor([[0, 0], [0, 2], [1, 1]], [1.0, 2.0, 3.0], [2, 3])
        >>> print(tf.sparse.softmax(sp).values)
        companion.Tensor([0.26894143 0.7310586  1.        ], shape=(3,), dtype=float32)
    """
    sp = as_sparse(sp_input, "sparse.softmax")
    kept = list(range(len(sp._shape) - 1))
    segments, shape = _segments(sp, kept)
    count = max(int(np.prod(shape)), 1)
    top = gather(unsorted_segment_max(sp.values, segments, count), segments)
    weights = exp(sp.values - top)
    total = gather(unsorted_segment_sum(weights, segments, count), segments)
    return sp.with_values(weights / total)
