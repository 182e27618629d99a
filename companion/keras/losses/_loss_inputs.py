"""Turning ``(y_true, y_pred)`` into two tensors of one float dtype and compatible shapes, as Keras does."""

import numpy as np

from companion._core import _dtypes
from companion._core._convert import as_input
from companion._ops._array import expand_dims, squeeze
from companion._ops._math import cast
from companion._ops._nn import shape_of


def loss_inputs(y_true, y_pred, loss_name):
    """``y_pred`` as a float tensor (ints become float32) and ``y_true`` cast to its dtype.

    Raises:
        ValueError: the two shapes do not broadcast together.
    """
    y_pred = float_tensor(y_pred)
    y_true = as_input(y_true)
    if y_true.dtype != y_pred.dtype:
        y_true = cast(y_true, y_pred.dtype)
    check_broadcastable(y_true, y_pred, loss_name)
    return y_true, y_pred


def float_tensor(x, dtype=None):
    """``x`` as a tensor; cast to ``dtype``, or to float32 when it is not floating-point."""
    x = as_input(x)
    if dtype is not None and x.dtype != _dtypes.as_dtype(dtype):
        return cast(x, dtype)
    if not x.dtype.is_floating:
        return cast(x, _dtypes.float32)
    return x


def squeeze_or_expand(y_pred, y_true):
    """Brings ``y_pred`` and ``y_true`` to one rank when they differ by a trailing size-1 axis.

    Keras 3's ``squeeze_or_expand_to_same_rank``: when one has one more dimension and that
    last dimension is 1, a rank-1 partner gets a trailing axis (labels ``(n,)`` beside
    predictions ``(n, 1)`` become ``(n, 1)``, so per-example functions keep one value per
    example); otherwise the size-1 axis is squeezed away. Either way the two are compared
    element by element, not broadcast to ``(n, n)``.
    """
    pred_shape, true_shape = shape_of(y_pred), shape_of(y_true)
    if len(true_shape) == len(pred_shape) + 1 and true_shape[-1] == 1:
        if len(pred_shape) == 1:
            y_pred = expand_dims(y_pred, -1)
        else:
            y_true = squeeze(y_true, axis=-1)
    elif len(pred_shape) == len(true_shape) + 1 and pred_shape[-1] == 1:
        if len(true_shape) == 1:
            y_true = expand_dims(y_true, -1)
        else:
            y_pred = squeeze(y_pred, axis=-1)
    return y_pred, y_true


def match_weight_rank(weights, values):
    """Keras's sample-weight rank fix: squeeze a trailing 1, or add one, to match ``values``."""
    w_rank, v_rank = len(shape_of(weights)), len(shape_of(values))
    if w_rank == v_rank + 1 and shape_of(weights)[-1] == 1:
        return squeeze(weights, axis=-1)
    if v_rank == w_rank + 1 and w_rank > 0:
        return expand_dims(weights, -1)
    return weights


def check_broadcastable(y_true, y_pred, loss_name):
    """Raises ValueError naming ``loss_name`` when the shapes cannot broadcast together."""
    try:
        np.broadcast_shapes(shape_of(y_true), shape_of(y_pred))
    except ValueError:
        raise ValueError(f"{loss_name}: y_true and y_pred have incompatible shapes. Received y_true of "
                         f"shape {shape_of(y_true)} and y_pred of shape {shape_of(y_pred)}. Pass labels "
                         f"shaped like the predictions, e.g. reshape y_true to {shape_of(y_pred)}.") from None
