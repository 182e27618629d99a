"""Combining SparseTensors: `add` (with another SparseTensor or a dense tensor) and `map_values`."""

import numpy as np

from companion._core._convert import as_input, constant
from companion._core._errors import InvalidArgumentError
from companion._ops._array import concat
from companion._ops._counting import unsorted_segment_sum
from companion._ops._math import abs as dense_abs
from companion._ops._select import boolean_mask
from companion.sparse._convert import to_dense
from companion.sparse._sparse_tensor import SparseTensor, host_indices


def add(a, b, threshold=0):
    """``a + b`` where at least one side is a SparseTensor. Sparse + dense gives a dense tensor;
    sparse + sparse a SparseTensor holding the union of their entries (values at shared indices
    summed; sums whose magnitude is below ``threshold`` dropped), in row-major order.

    Example:
        >>> import companion as tf
        >>> a = tf.SparseTensor([[0, 0], [1, 1]], [1.0, 2.0], [2, 2])
        >>> b = tf.SparseTensor([[0, 0]], [-1.0], [2, 2])
        >>> print(tf.sparse.add(a, b).values)
        companion.Tensor([0. 2.], shape=(2,), dtype=float32)
    """
    a_sparse, b_sparse = isinstance(a, SparseTensor), isinstance(b, SparseTensor)
    if not (a_sparse or b_sparse):
        raise TypeError("sparse.add needs at least one SparseTensor; for two dense tensors use "
                        f"companion.add. Received: {type(a).__name__} and {type(b).__name__}")
    if not (a_sparse and b_sparse):
        sp, dense = (a, b) if a_sparse else (b, a)
        return to_dense(sp) + as_input(dense, sp.dtype)
    if a._shape != b._shape:
        raise InvalidArgumentError(f"sparse.add: the dense shapes differ: {list(a._shape)} and "
                                   f"{list(b._shape)}.")
    if a.dtype != b.dtype:
        raise InvalidArgumentError(f"sparse.add: the values' dtypes differ: {a.dtype.name} and "
                                   f"{b.dtype.name}.")
    indices = np.concatenate([host_indices(a, "sparse.add"), host_indices(b, "sparse.add")])
    linear = np.ravel_multi_index(tuple(indices.T), a._shape) if len(a._shape) else np.zeros(len(indices))
    present, segments = np.unique(linear, return_inverse=True)
    sums = unsorted_segment_sum(concat([a.values, b.values], axis=0),
                                constant(segments.astype(np.int64)), len(present))
    positions = np.stack(np.unravel_index(present, a._shape), axis=1).astype(np.int64) \
        if len(a._shape) else np.zeros((len(present), 0), np.int64)
    threshold = as_input(threshold)
    if not threshold.is_traced and float(threshold.numpy()) == 0:
        return SparseTensor(positions, sums, a._shape)
    keep = dense_abs(sums) >= as_input(threshold, sums.dtype)
    return SparseTensor(boolean_mask(constant(positions), keep), boolean_mask(sums, keep), a._shape)


def map_values(op, *args, **kwargs):
    """``op`` applied to the values of the SparseTensors among ``args``/``kwargs`` (which must share
    their indices and dense shape); the result has those indices.

    Example:
        >>> import companion as tf
        >>> sp = tf.SparseTensor([[0, 1]], [3.0], [2, 2])
        >>> print(tf.sparse.map_values(tf.square, sp).values)
        companion.Tensor([9.], shape=(1,), dtype=float32)
    """
    sparse = [v for v in list(args) + list(kwargs.values()) if isinstance(v, SparseTensor)]
    if not sparse:
        raise ValueError("sparse.map_values: no SparseTensor among the arguments. Pass at least one.")
    first = sparse[0]
    for other in sparse[1:]:
        same = other._shape == first._shape and other.indices.shape == first.indices.shape and (
            other.indices is first.indices or first.indices.is_traced or other.indices.is_traced
            or np.array_equal(other.indices.numpy(), first.indices.numpy()))
        if not same:
            raise InvalidArgumentError("sparse.map_values: the SparseTensors must have the same indices "
                                       "and dense_shape.")

    def unwrap(value):
        return value.values if isinstance(value, SparseTensor) else value

    result = op(*[unwrap(v) for v in args], **{k: unwrap(v) for k, v in kwargs.items()})
    return first.with_values(result)
