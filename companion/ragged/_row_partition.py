"""Row partitions as TensorFlow's ``tf.ragged`` builds and converts them: `range`,
`row_splits_to_segment_ids`, `segment_ids_to_row_splits`. Partitions are host arrays (see
`RaggedTensor`), so these need concrete inputs."""

import numpy as np

from companion._core import _dtypes
from companion._core._convert import as_input, is_tensor
from companion._core._errors import InvalidArgumentError
from companion._core._tensor import Tensor
from companion._ops._math import cast
from companion.ragged._ragged_tensor import RaggedTensor, _host_ints, _tensor_of


def _host(value, what):
    tensor = as_input(value)
    if tensor.is_traced:
        raise TypeError(f"tf.ragged.{what} needs concrete values: companion keeps a RaggedTensor's row "
                        "partition on the host (call it outside companion.function).")
    return tensor


def range(starts, limits=None, deltas=1, dtype=None, name=None, row_splits_dtype=_dtypes.int64):  # noqa: A001
    """One row ``range(start, limit, delta)`` per element of ``starts``/``limits``/``deltas``
    (scalars broadcast; a single argument is the limits, starting at 0).

    Example:
        >>> import companion as tf
        >>> print(tf.ragged.range([3, 5, 2]))
        <companion.RaggedTensor [[0, 1, 2], [0, 1, 2, 3, 4], [0, 1]]>
    """
    if limits is None:
        starts, limits = 0, starts
    tensors = [_host(v, "range") if dtype is None else _host(cast(v, dtype), "range")
               for v in (starts, limits, deltas)]
    dtypes = {t.dtype for t in tensors}
    if len(dtypes) != 1:
        names = ", ".join(t.dtype.name for t in tensors)
        raise InvalidArgumentError(f"tf.ragged.range needs starts, limits and deltas of one dtype. Received "
                                   f"{names}: pass dtype= to convert them.")
    result = tensors[0].dtype
    if not (result.is_integer or result.is_floating):
        raise TypeError(f"tf.ragged.range needs integer or float bounds. Received dtype {result.name}.")
    arrays = [np.asarray(t) for t in tensors]
    shapes = {a.shape for a in arrays if a.ndim}
    if any(a.ndim > 1 for a in arrays) or len(shapes) > 1:
        raise InvalidArgumentError("starts, limits, and deltas must have the same shape (vectors of one "
                                   f"length, or scalars). Received shapes {[a.shape for a in arrays]}.")
    start, limit, delta = np.broadcast_arrays(*[np.atleast_1d(a) for a in arrays])
    if (delta == 0).any():
        raise InvalidArgumentError("Requires delta != 0 (tf.ragged.range).")
    with np.errstate(invalid="ignore"):
        sizes = np.where(((delta > 0) & (limit > start)) | ((delta < 0) & (limit < start)),
                         np.ceil(np.abs((limit.astype(np.float64) - start) / delta)), 0).astype(np.int64)
    np_dtype = result._np
    rows = [start[i] + np.arange(sizes[i], dtype=np_dtype) * delta[i] for i in np.arange(len(sizes))]
    values = np.concatenate(rows).astype(np_dtype) if rows else np.zeros(0, np_dtype)
    return RaggedTensor.from_row_lengths(_tensor_of(values), sizes.astype(_splits_np(row_splits_dtype)))


def _splits_np(row_splits_dtype):
    """The NumPy dtype of ``row_splits_dtype`` (int32 or int64, as TF allows)."""
    dtype = _dtypes.as_dtype(row_splits_dtype)
    if dtype not in (_dtypes.int32, _dtypes.int64):
        raise ValueError(f"row_splits_dtype must be int32 or int64. Received: {row_splits_dtype!r}")
    return dtype._np


def row_splits_to_segment_ids(splits, name=None, out_type=None):
    """The row of each value, from row splits (``[0, 3, 3, 5]`` -> ``[0, 0, 0, 2, 2]``).

    Example:
        >>> import companion as tf
        >>> print(tf.ragged.row_splits_to_segment_ids([0, 3, 3, 5]))
        companion.Tensor([0 0 0 2 2], shape=(5,), dtype=int64)
    """
    array, out = _vector_ints(splits, out_type, "row_splits_to_segment_ids", "splits")
    if array.size == 0 or array[0] != 0 or (np.diff(array) < 0).any():
        raise InvalidArgumentError(f"row_splits_to_segment_ids: splits must start at 0 and never decrease. "
                                   f"Received {array.tolist()}.")
    return Tensor(np.repeat(np.arange(array.size - 1), np.diff(array)).astype(out._np))


def segment_ids_to_row_splits(segment_ids, num_segments=None, out_type=None, name=None):
    """Row splits from each value's (sorted) row, ``num_segments`` rows in all (default: the last id
    plus one).

    Example:
        >>> import companion as tf
        >>> print(tf.ragged.segment_ids_to_row_splits([0, 0, 2, 3]))
        companion.Tensor([0 2 2 3 4], shape=(5,), dtype=int64)
    """
    ids, out = _vector_ints(segment_ids, out_type, "segment_ids_to_row_splits", "segment_ids")
    count = int(ids.max()) + 1 if ids.size else 0
    if num_segments is not None:
        count = int(np.asarray(as_input(num_segments)))
    lengths = np.bincount(ids[ids < count], minlength=count) if count else np.zeros(0, np.int64)
    return Tensor(np.concatenate([[0], np.cumsum(lengths)]).astype(out._np))


def _vector_ints(given, out_type, what, part):
    """A rank-1 integer argument's values on the host, and the dtype of the result built from it."""
    tensor = _host(given, what)
    if tensor.ndim != 1:
        raise ValueError(f"Shape {tuple(tensor.shape.as_list())} must have rank 1")
    return _host_ints(tensor, part), _out_type(out_type, given, tensor)


def _out_type(out_type, given, tensor):
    """TF's default: a tensor's own int dtype; int64 for Python lists."""
    if out_type is not None:
        return _dtypes.as_dtype(out_type)
    if is_tensor(given) and tensor.dtype in (_dtypes.int32, _dtypes.int64):
        return tensor.dtype
    return _dtypes.int64
