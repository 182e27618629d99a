"""``tf.sparse.segment_sum/mean/sqrt_n``: segment reductions over selected rows of a dense tensor
(``data[indices]`` grouped by sorted ``segment_ids``), and `maximum`/`minimum` of two SparseTensors."""

import jax.numpy as jnp
import numpy as np

from companion._core._convert import as_input
from companion._core._errors import InvalidArgumentError
from companion._core._op import op
from companion._ops._counting import unsorted_segment_mean, unsorted_segment_sqrt_n, unsorted_segment_sum
from companion._ops._kernel_dtypes import kernel_name, unsupported_dtype_error
from companion._ops._math import maximum as dense_maximum
from companion._ops._math import minimum as dense_minimum
from companion._ops._select import gather, gather_nd
from companion.sparse._convert import to_dense
from companion.sparse._sparse_tensor import SparseTensor, host_indices


def segment_sum(data, indices, segment_ids, num_segments=None, name=None, sparse_gradient=False):
    """``out[s] = sum(data[indices[j]] for j with segment_ids[j] == s)``; ``segment_ids`` sorted. The
    result has ``num_segments`` rows (default ``max(segment_ids) + 1``); empty segments are 0.

    Example:
        >>> import companion as tf
        >>> data = tf.constant([[1.0, 2.0], [-1.0, -2.0], [5.0, 6.0]])
        >>> print(tf.sparse.segment_sum(data, [0, 1, 2], [0, 1, 1]))
        companion.Tensor(
        [[1. 2.]
         [4. 4.]], shape=(2, 2), dtype=float32)
    """
    return _segment(data, indices, segment_ids, num_segments, "sum", "SparseSegmentSum", sparse_gradient)


def segment_mean(data, indices, segment_ids, num_segments=None, name=None, sparse_gradient=False):
    """Like `segment_sum`, each segment divided by its size (float data only)."""
    return _segment(data, indices, segment_ids, num_segments, "mean", "SparseSegmentMean", sparse_gradient)


def segment_sqrt_n(data, indices, segment_ids, num_segments=None, name=None, sparse_gradient=False):
    """Like `segment_sum`, each segment divided by the square root of its size (float data only)."""
    return _segment(data, indices, segment_ids, num_segments, "sqrt_n", "SparseSegmentSqrtN", sparse_gradient)


def _segment(data, indices, segment_ids, num_segments, kind, tf_name, sparse_gradient=False):
    what = f"sparse.segment_{kind}"
    data, indices, ids = as_input(data), as_input(indices), as_input(segment_ids)
    if kind != "sum" and data.dtype.name not in ("bfloat16", "float16", "float32", "float64"):
        raise unsupported_dtype_error()(
            f"Value for attr 'T' of {kernel_name(data.dtype.name)} is not in the list of allowed values: "
            f"bfloat16, half, float, double\n{what} needs float data: cast it first. [Op:{tf_name}]")
    if indices.ndim != 1 or ids.ndim != 1 or indices.shape[0] != ids.shape[0]:
        raise InvalidArgumentError(f"segment_ids and indices should have same size ({what}: 1-D, one entry "
                                   f"each). Received shapes {tuple(indices.shape.as_list())} and "
                                   f"{tuple(ids.shape.as_list())}.")
    rows = data.shape[0]
    if not indices.is_traced:
        picked = np.asarray(indices)
        bad = np.flatnonzero((picked < 0) | (picked >= rows))
        if bad.size:
            raise InvalidArgumentError(f"Bad: indices[{bad[0]}] == {picked[bad[0]]} out of range [0, {rows}) "
                                       f"({what}).")
    if num_segments is None or not ids.is_traced:
        if ids.is_traced:
            raise TypeError(f"{what}: without num_segments the result's size is max(segment_ids) + 1, so "
                            "segment_ids must be concrete. Inside a function pass num_segments.")
        array = np.asarray(ids)
        if (np.diff(array) < 0).any() or (array.size and array[0] < 0):
            raise InvalidArgumentError(f"segment ids are not increasing ({what}: {array.tolist()}).")
        if num_segments is None:
            num_segments = int(array[-1]) + 1 if array.size else 0
    reduce = _REDUCTIONS[kind]
    # TF's gradient for data is dense, IndexedSlices only with sparse_gradient=True: a tape sees `gather`
    # as a row lookup (IndexedSlices), `_picked_rows` as any other op
    rows = gather(data, indices) if sparse_gradient else _picked_rows(data, indices)
    return reduce(rows, ids, num_segments)


@op("sparse_segment_rows")
def _picked_rows(data, indices):
    return jnp.take(data, indices, axis=0)


_REDUCTIONS = {"sum": unsorted_segment_sum, "mean": unsorted_segment_mean, "sqrt_n": unsorted_segment_sqrt_n}


def _union(what, a, b, combine):
    if not (isinstance(a, SparseTensor) and isinstance(b, SparseTensor)):
        raise TypeError(f"sparse.{what} takes two SparseTensors. Received {type(a).__name__} and "
                        f"{type(b).__name__}.")
    if a.dtype != b.dtype:
        raise InvalidArgumentError(f"sparse.{what} needs two SparseTensors of one dtype. Received "
                                   f"{a.dtype.name} and {b.dtype.name}.")
    shape_a, shape_b = np.asarray(a.dense_shape).tolist(), np.asarray(b.dense_shape).tolist()
    if shape_a != shape_b:
        raise InvalidArgumentError(f"Operands do not have the same ranks or shapes: {shape_a} and {shape_b} "
                                   f"(sparse.{what}).")
    both = np.concatenate([host_indices(a, what), host_indices(b, what)]).reshape(-1, len(shape_a))
    union = np.unique(both, axis=0).astype(np.int64)  # row-major order
    values = combine(gather_nd(to_dense(a), union), gather_nd(to_dense(b), union))
    return SparseTensor(union, values, shape_a)


def maximum(sp_a, sp_b, name=None):
    """The element-wise maximum of two SparseTensors of one shape, at the union of their entries (an
    entry one side lacks counts as 0).

    Example:
        >>> import companion as tf
        >>> a = tf.SparseTensor([[0, 0], [1, 1]], [1.0, -2.0], [2, 2])
        >>> b = tf.SparseTensor([[0, 0], [0, 1]], [3.0, 4.0], [2, 2])
        >>> print(tf.sparse.maximum(a, b).values)
        companion.Tensor([3. 4. 0.], shape=(3,), dtype=float32)
    """
    return _union("maximum", sp_a, sp_b, dense_maximum)


def minimum(sp_a, sp_b, name=None):
    """The element-wise minimum of two SparseTensors of one shape, at the union of their entries."""
    return _union("minimum", sp_a, sp_b, dense_minimum)
