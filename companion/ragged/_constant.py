"""`ragged.constant`: a RaggedTensor from nested Python lists whose rows differ in length."""

import numpy as np

from companion._core import _dtypes
from companion._core._convert import constant as dense_constant
from companion.ragged._ragged_tensor import RaggedTensor


def constant(pylist, dtype=None, ragged_rank=None, inner_shape=None, name=None, row_splits_dtype="int64"):
    """A RaggedTensor holding ``pylist`` (nested lists; the innermost items are scalars).

    Every level above the scalars is ragged (``ragged_rank`` = depth - 1), as TF does by default;
    a smaller ``ragged_rank`` keeps the innermost levels dense (their lengths must then agree).
    Dtypes follow TF: Python ints give int32, floats float32, strings ``string``.

    Example:
        >>> import companion as tf
        >>> print(tf.ragged.constant([[1, 2], [3]]))
        <companion.RaggedTensor [[1, 2], [3]]>
    """
    depth = _depth(pylist)
    if depth < 2 and ragged_rank is None:  # nothing ragged: a dense tensor, as TF's
        return _dense(pylist, dtype)
    if depth < 2:
        raise ValueError(f"pylist has scalar values depth {depth}, but ragged_rank={ragged_rank} requires "
                         "scalar value depth greater than 1. Pass nested lists (rows) or leave "
                         "ragged_rank out.")
    if ragged_rank is None:
        ragged_rank = max(depth - 1 - (len(inner_shape) if inner_shape else 0), 1) if depth > 1 else 1
    if depth < 2 and ragged_rank >= 1 and not isinstance(pylist, (list, tuple)):
        raise ValueError(f"ragged.constant needs nested lists. Received: {pylist!r}")
    if ragged_rank < 1 or ragged_rank >= max(depth, 2):
        raise ValueError(f"ragged_rank must be between 1 and {max(depth - 1, 1)} for a list nested {depth} "
                         f"deep. Received: ragged_rank={ragged_rank}")
    splits_dtype = _dtypes.as_dtype(row_splits_dtype)
    if splits_dtype not in (_dtypes.int32, _dtypes.int64):
        raise ValueError(f"row_splits_dtype must be int32 or int64. Received: {row_splits_dtype!r}")
    return _build(list(pylist), ragged_rank, dtype).with_row_splits_dtype(splits_dtype)


def _build(rows, ragged_rank, dtype):
    lengths = [len(_as_list(row)) for row in rows]
    flat = [item for row in rows for item in _as_list(row)]
    if ragged_rank > 1:
        values = _build(flat, ragged_rank - 1, dtype)
    else:
        values = _dense(flat, dtype)
    return RaggedTensor.from_row_lengths(values, np.asarray(lengths, np.int64))


def _dense(items, dtype):
    if isinstance(items, (list, tuple)) and not items:
        return dense_constant(np.zeros((0,), (_dtypes.as_dtype(dtype) if dtype else _dtypes.float32)._np))
    try:
        return dense_constant(items, dtype=dtype)
    except ValueError as error:
        raise ValueError("ragged.constant: the dense inner dimensions of the rows differ; pass a larger "
                         f"ragged_rank to make them ragged too. ({error})") from None


def _as_list(row):
    if isinstance(row, (list, tuple)):
        return list(row)
    if isinstance(row, np.ndarray):
        return list(row)
    raise ValueError(f"ragged.constant: every row must be a list, found a scalar {row!r} beside lists.")


def _depth(value):
    if isinstance(value, (list, tuple, np.ndarray)):
        depths = [_depth(item) for item in value]
        return 1 + (max(depths) if depths else 0)
    return 0
