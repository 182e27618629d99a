"""`RaggedTensor.to_tensor`: rows padded at the end into one dense tensor.

Numeric rows scatter into a filled tensor with `tensor_scatter_nd_update` (an op, so a tape
differentiates through it); string rows are filled in NumPy (string tensors live on the host).
"""

import numpy as np

from companion._core import _dtypes
from companion._core._convert import as_input, constant
from companion._ops._array import broadcast_to
from companion._ops._creation import fill
from companion._ops._scatter import tensor_scatter_nd_update
from companion._ops._select import gather


def dense_rows(values, rowids, positions, nrows, width, default_value, shape):
    """``values`` (one row element per entry, rows given by ``rowids``/``positions``) padded."""
    inner = tuple(values.shape.as_list()[1:])
    if shape is not None:
        nrows, width = _wanted(shape, nrows, width)
        keep = (rowids < nrows) & (positions < width)
        rowids, positions = rowids[keep], positions[keep]
        if not keep.all():
            values = gather(values, constant(np.nonzero(keep)[0].astype(np.int64)))
    dtype = values.dtype
    if dtype == _dtypes.string:
        out = np.full((nrows, width) + inner, b"" if default_value is None else _as_bytes(default_value),
                      dtype=object)
        out[rowids, positions] = np.asarray(values._value, dtype=object)
        return constant(out)

    default = as_input(0 if default_value is None else default_value, dtype=dtype)
    base = fill((nrows, width) + inner, default) if default.shape.rank == 0 else _broadcast(default, nrows,
                                                                                           width, inner)
    if rowids.size == 0:
        return base
    indices = constant(np.stack([rowids, positions], axis=1).astype(np.int64))
    return tensor_scatter_nd_update(base, indices, values)


def _broadcast(default, nrows, width, inner):
    return broadcast_to(default, (nrows, width) + inner)


def _wanted(shape, nrows, width):
    dims = list(shape.as_list() if hasattr(shape, "as_list") else shape)
    return (nrows if dims[0] is None else int(dims[0])), (width if dims[1] is None else int(dims[1]))


def _as_bytes(value):
    value = getattr(value, "_value", value)
    value = value[()] if isinstance(value, np.ndarray) else value
    return value.encode() if isinstance(value, str) else value
