"""Reductions of a RaggedTensor (TF's ragged dispatch of ``reduce_sum`` & co.).

``axis=None`` reduces every value; ``axis=1`` (the ragged one) reduces each row with a segment
op (an empty row gives the op's identity: 0 for a sum, the lowest value for a max, NaN for a
mean, a float64 one for integers, as TF); ``axis=0`` reduces each column over the rows that are long enough.
"""

import numpy as np

from companion._core._convert import constant
from companion._ops import _counting as segment_ops
from companion._ops._array import expand_dims, reshape
from companion._ops._math import cast, divide, sqrt
from companion._ops._reduce import reduce_mean
from companion.ragged._ragged_tensor import RaggedTensor

_SPREAD = ("reduce_variance", "reduce_std")
_SEGMENT = {"reduce_sum": "sum", "reduce_prod": "prod", "reduce_max": "max", "reduce_min": "min",
            "reduce_mean": "mean", "reduce_any": "max", "reduce_all": "min"}


def reduce(name, dense_reduce, rt, axis=None, keepdims=False):
    """``dense_reduce`` (e.g. `reduce_sum`) applied to ``rt`` over ``axis``."""
    if name in _SPREAD:
        return _spread(name, dense_reduce, rt, axis, keepdims)
    if name not in _SEGMENT:
        raise NotImplementedError(f"companion does not implement {name} on a RaggedTensor yet; "
                                  "use .to_tensor() or .values first.")
    ndim = rt.shape.rank
    if axis is None:
        return dense_reduce(rt.flat_values, keepdims=keepdims)
    axes = sorted({a % ndim for a in (axis if isinstance(axis, (list, tuple)) else [axis])})
    if axes == list(range(ndim)):
        return dense_reduce(rt.flat_values, keepdims=keepdims)
    if len(axes) == 1 and axes[0] >= 2:  # inside every row: the values reduce one axis further in
        inner = rt.values
        if isinstance(inner, RaggedTensor):
            reduced = reduce(name, dense_reduce, inner, axes[0] - 1, keepdims)
        else:
            reduced = dense_reduce(inner, axis=axes[0] - 1, keepdims=keepdims)
        return RaggedTensor(reduced, rt._splits, internal=True, splits_dtype=rt._splits_dtype)
    if len(axes) == 1 and axes[0] == 1 and isinstance(rt.values, RaggedTensor):
        return _across_inner_rows(name, rt, keepdims)
    if isinstance(rt.values, RaggedTensor):
        raise NotImplementedError(f"companion's {name} of a RaggedTensor of ragged_rank {rt.ragged_rank} "
                                  f"takes one axis >= 1 (or all of them). Received axis={axis}.")
    if len(axes) != 1 or axes[0] not in (0, 1):
        raise NotImplementedError(f"companion reduces a RaggedTensor over axis None, 0 or 1. "
                                  f"Received axis={axis}.")
    if axes[0] == 1:
        ids, count = rt._rowids(), rt._nrows()
    else:
        ids = rt._positions()
        count = int(np.diff(rt._splits).max()) if rt._nrows() else 0
    out = _segment(name, rt.flat_values, ids, count)
    if keepdims:
        out = expand_dims(out, axes[0])
    return out


def _across_inner_rows(name, rt, keepdims):
    """Axis 1 of ragged rank >= 2: each outer row's inner rows reduced position by position."""
    inner = rt.values
    if isinstance(inner.values, RaggedTensor) or keepdims:
        raise NotImplementedError(f"companion's {name} over axis 1 takes ragged_rank 2 without keepdims.")
    lengths = np.diff(inner._splits)
    widths = [int(lengths[a:b].max()) if b > a else 0 for a, b in zip(rt._splits[:-1], rt._splits[1:])]
    out_splits = np.concatenate([[0], np.cumsum(widths)]).astype(np.int64)
    outer_of_inner = rt._rowids()
    ids = out_splits[outer_of_inner[inner._rowids()]] + inner._positions()
    out = _segment(name, inner.values, ids, int(out_splits[-1]))
    return RaggedTensor(out, out_splits, internal=True, splits_dtype=rt._splits_dtype)


def _spread(name, dense_reduce, rt, axis, keepdims):
    """``reduce_variance``/``reduce_std``: the mean squared distance from the mean (its root)."""
    if axis is not None and [a % rt.shape.rank for a in np.atleast_1d(axis)] != [rt.shape.rank - 1]:
        raise NotImplementedError(f"companion's {name} of a RaggedTensor takes axis=None or the last axis. "
                                  f"Received axis={axis}.")
    mean = reduce("reduce_mean", reduce_mean, rt, axis, keepdims=True)
    centered = rt - mean
    variance = reduce("reduce_mean", reduce_mean, centered * centered, axis, keepdims)
    return sqrt(variance) if name == "reduce_std" else variance


def _segment(name, values, ids, count):
    ids = constant(ids.astype(np.int32))
    kind = _SEGMENT[name]
    is_bool = values.dtype.is_bool
    if is_bool:
        values = cast(values, "int32")
    if kind == "mean":
        total = segment_ops.unsorted_segment_sum(values, ids, count)
        ones = cast(constant(np.ones(values.shape[0], np.float32)), total.dtype)
        counts = segment_ops.unsorted_segment_sum(ones, ids, count)
        counts = reshape(counts, [count] + [1] * (total.shape.rank - 1))  # per row, over inner dims
        return divide(total, counts)  # a true division, as TF's: integer rows average to float64
    fn = {"sum": segment_ops.unsorted_segment_sum, "prod": segment_ops.unsorted_segment_prod,
          "max": segment_ops.unsorted_segment_max, "min": segment_ops.unsorted_segment_min}[kind]
    out = fn(values, ids, count)
    return cast(out, "bool") if is_bool else out
