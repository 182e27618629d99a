"""`boolean_mask` of ``tf.ragged``: results whose rows have different lengths (`stack` is in `_array_ops`)."""

import numpy as np

from companion._core._convert import as_input
from companion._core._tensor import Tensor
from companion._ops._select import boolean_mask as _dense_boolean_mask
from companion._ops._select import gather
from companion.ragged._ragged_tensor import RaggedTensor


def _gather(values, order):
    return gather(values, Tensor(order))


def boolean_mask(data, mask, name=None):
    """Keeps the entries of ``data`` where ``mask`` is true; the mask's rank decides the result: a 1-D
    mask keeps rows (a dense result for dense data), a 2-D mask keeps entries within each row (a
    RaggedTensor, its rows as long as each row's true count).

    Example:
        >>> import companion as tf
        >>> print(tf.ragged.boolean_mask(tf.constant([[1, 2, 3], [4, 5, 6]]),
        ...                              tf.constant([[True, False, True], [False, False, True]])))
        <companion.RaggedTensor [[1, 3], [6]]>
    """
    if isinstance(mask, RaggedTensor):
        if not isinstance(data, RaggedTensor) or mask.ragged_rank != 1 or data.ragged_rank != 1 or \
                not np.array_equal(mask._splits, data._splits):
            raise ValueError("tf.ragged.boolean_mask: a ragged mask needs ragged data with the same rows.")
        flat = _bool_mask(mask.values)
        kept = _dense_boolean_mask(data.values, flat)
        lengths = np.bincount(data._rowids()[np.asarray(flat)], minlength=data._nrows())
        return RaggedTensor.from_row_lengths(kept, lengths)
    mask = _bool_mask(mask)
    if isinstance(data, RaggedTensor):
        if mask.ndim != 1:
            raise NotImplementedError("tf.ragged.boolean_mask on ragged data takes a 1-D or ragged mask.")
        return _ragged_rows(data, np.flatnonzero(np.asarray(mask)))
    data = as_input(data)
    data_shape, mask_shape = tuple(data.shape.as_list()), tuple(mask.shape.as_list())
    if mask.ndim > data.ndim or data_shape[:mask.ndim] != mask_shape:
        raise ValueError(f"Shapes {data_shape} and {mask_shape} are incompatible (the mask's shape must be "
                         "the start of the data's).")
    if mask.ndim == 1:
        return _dense_boolean_mask(data, mask)
    if mask.ndim != 2:
        raise NotImplementedError("companion's tf.ragged.boolean_mask takes masks of rank 1 or 2.")
    keep = np.asarray(mask)
    return RaggedTensor.from_row_lengths(_dense_boolean_mask(data, mask), keep.sum(axis=1))


def _ragged_rows(data, rows):
    """The rows ``rows`` (ascending) of a ragged rank-1 RaggedTensor."""
    starts, limits = data._splits[:-1][rows], data._splits[1:][rows]
    positions = np.concatenate([np.arange(s, e) for s, e in zip(starts, limits)] or [np.zeros(0, np.int64)])
    return RaggedTensor.from_row_lengths(_gather(data.values, positions.astype(np.int64)), limits - starts)


def _bool_mask(mask):
    mask = as_input(mask)
    if mask.dtype.name != "bool":
        raise ValueError(f"mask: Tensor conversion requested dtype bool for Tensor with dtype "
                         f"{mask.dtype.name} (tf.ragged.boolean_mask needs a boolean mask).")
    if mask.is_traced:
        raise TypeError("tf.ragged.boolean_mask needs a concrete mask: companion keeps a RaggedTensor's row "
                        "partition on the host (call it outside companion.function).")
    return mask
