"""``zeros_like``, ``ones_like``, ``where``, ``size`` and ``rank`` of RaggedTensors (TF's ragged dispatch)."""

import numpy as np

from companion._core import _dtypes
from companion._ops import _creation, _select
from companion.ragged._map_flat_values import elementwise
from companion.ragged._ragged_tensor import _tensor_of


def zeros_like(input, dtype=None, name=None):  # noqa: A002 - TensorFlow's argument name
    """Zeros with ``input``'s rows."""
    return input.with_flat_values(_creation.zeros_like(input.flat_values, dtype))


def ones_like(input, dtype=None, name=None):  # noqa: A002
    """Ones with ``input``'s rows."""
    return input.with_flat_values(_creation.ones_like(input.flat_values, dtype))


def where(condition, x=None, y=None, name=None):
    """``x`` where ``condition`` is true, else ``y``, elementwise over shared rows."""
    if x is None or y is None:
        raise NotImplementedError("companion's where on a RaggedTensor needs x and y (the coordinates "
                                  "form is not implemented); use tf.where(rt.values) instead.")
    return elementwise(_select.where, condition, x, y)


def size(input, out_type=_dtypes.int32, name=None):  # noqa: A002
    """The number of elements of ``input`` (its flat values)."""
    count = int(np.prod(input.flat_values.shape.as_list(), dtype=np.int64))
    return _tensor_of(np.asarray(count, _dtypes.as_dtype(out_type)._np))


def rank(input, name=None):  # noqa: A002
    """The number of dimensions of ``input`` (an int32 scalar)."""
    return _tensor_of(np.asarray(input.shape.rank, np.int32))


