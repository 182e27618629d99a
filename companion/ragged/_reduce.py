"""Reductions of a RaggedTensor (TF's ragged dispatch of ``reduce_sum`` & co.).

``axis=None`` reduces every value; ``axis=1`` (the ragged one) reduces each row with a segment
op (an empty row gives the op's identity: 0 for a sum, the lowest value for a max, NaN for a
mean, a float64 one for integers, as TF); ``axis=0`` reduces each column over the rows that are long enough.
"""

import numpy as np

from companion._core._convert import constant
from companion._ops import _counting as segment_ops
from companion._ops._array import expand_dims, reshape
from companion._ops._math import cast, divide
from companion.ragged._ragged_tensor import RaggedTensor

_SEGMENT = {"reduce_sum": "sum", "reduce_prod": "prod", "reduce_max": "max", "reduce_min": "min",
            "reduce_mean": "mean", "reduce_any": "max", "reduce_all": "min"}


def reduce(name, dense_reduce, rt, axis=None, keepdims=False):
    """``dense_reduce`` (e.g. `reduce_sum`) applied to ``rt`` over ``axis``."""
    if name not in _SEGMENT:
        raise NotImplementedError(f"companion does not implement {name} on a RaggedTensor yet; "
                                  "use .to_tensor() or .values first.")
    if isinstance(rt.values, RaggedTensor):
        raise NotImplementedError(f"companion's {name} handles RaggedTensors of ragged_rank 1; this one has "
                                  f"ragged_rank {rt.ragged_rank}.")
    ndim = rt.shape.rank
    if axis is None:
        return dense_reduce(rt.flat_values, keepdims=keepdims)
    axes = sorted({a % ndim for a in (axis if isinstance(axis, (list, tuple)) else [axis])})
    if axes == list(range(ndim)):
        return dense_reduce(rt.flat_values, keepdims=keepdims)
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
