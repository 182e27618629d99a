"""`stack` and `boolean_mask` of ``tf.ragged``: results whose rows have different lengths."""

import numpy as np

from companion._core._convert import as_input
from companion._core._errors import InvalidArgumentError
from companion._core._tensor import Tensor
from companion._ops._array import concat
from companion._ops._select import boolean_mask as _dense_boolean_mask
from companion._ops._select import gather
from companion.ragged._ragged_tensor import RaggedTensor


def _ragged(value):
    """``value`` (a RaggedTensor, or a dense tensor of rank 2) as a RaggedTensor."""
    if isinstance(value, RaggedTensor):
        return value
    tensor = as_input(value)
    if tensor.is_traced:
        raise TypeError("tf.ragged.stack needs concrete tensors: companion keeps a RaggedTensor's row "
                        "partition on the host (call it outside companion.function).")
    return RaggedTensor.from_tensor(tensor)


def _rank(value):
    return value.ndim if isinstance(value, RaggedTensor) else as_input(value).ndim


def stack(values, axis=0, name=None):
    """Stacks tensors and RaggedTensors of one rank into a RaggedTensor of rank + 1 (axis 0: one block
    of rows per input; axis 1: the i-th rows of every input together). Dense 1-D inputs become one row
    each.

    Example:
        >>> import companion as tf
        >>> print(tf.ragged.stack([tf.constant([1, 2]), tf.constant([3, 4, 5])]))
        <companion.RaggedTensor [[1, 2], [3, 4, 5]]>
    """
    values = list(values)
    if not values:
        raise ValueError("tf.ragged.stack needs at least one tensor.")
    ranks = {_rank(v) for v in values}
    if len(ranks) != 1:
        raise ValueError(f"tf.ragged.stack needs tensors of one rank. Received ranks {sorted(ranks)}.")
    rank = ranks.pop()
    if rank == 1 and axis in (0, -2):
        rows = [as_input(v) for v in values]
        return RaggedTensor.from_row_lengths(concat(_one_dtype(rows), axis=0), [r.shape[0] for r in rows])
    if rank != 2 or axis not in (0, 1, -1, -3, -2):
        raise NotImplementedError(f"companion's tf.ragged.stack takes 1-D tensors (axis 0) or 2-D tensors "
                                  f"and RaggedTensors of ragged rank 1 (axis 0 or 1). Received rank {rank}, "
                                  f"axis {axis}.")
    parts = [_ragged(v) for v in values]
    if any(p.ragged_rank != 1 for p in parts):
        raise NotImplementedError("companion's tf.ragged.stack takes RaggedTensors of ragged rank 1.")
    inner = concat(_one_dtype([p.values for p in parts]), axis=0)
    lengths = [np.diff(p._splits) for p in parts]
    if axis in (0, -3):
        rows = RaggedTensor.from_row_lengths(inner, np.concatenate(lengths))
        return RaggedTensor.from_row_lengths(rows, [p._nrows() for p in parts])
    counts = {p._nrows() for p in parts}
    if len(counts) != 1:
        raise InvalidArgumentError(f"tf.ragged.stack on axis 1 needs inputs with one number of rows. "
                                   f"Received {[p._nrows() for p in parts]}.")
    nrows = counts.pop()
    # row i of the result holds row i of every input, in input order
    offsets = np.cumsum([0] + [p._splits[-1] for p in parts])
    pieces = [np.arange(p._splits[i], p._splits[i + 1]) + offsets[k]
              for i in np.arange(nrows) for k, p in enumerate(parts)]
    order = np.concatenate(pieces or [np.zeros(0, np.int64)])
    gathered = _gather(inner, order.astype(np.int64))
    row_lengths = np.stack(lengths, axis=1).ravel() if nrows else np.zeros(0, np.int64)
    rows = RaggedTensor.from_row_lengths(gathered, row_lengths)
    return RaggedTensor.from_row_lengths(rows, np.full(nrows, len(parts)))


def _gather(values, order):
    return gather(values, Tensor(order))


def _one_dtype(tensors):
    dtypes = {t.dtype for t in tensors}
    if len(dtypes) != 1:
        raise InvalidArgumentError(f"tf.ragged.stack needs tensors of one dtype. Received "
                                   f"{[t.dtype.name for t in tensors]}.")
    return tensors


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
