"""Sparse categorical cross-entropy: integer class labels against probabilities (or logits)."""

import jax.numpy as jnp

from companion._core import _dtypes
from companion._core._convert import as_input
from companion._core._op import op
from companion._ops._array import expand_dims, reshape
from companion._ops._creation import zeros_like
from companion._ops._math import cast, not_equal
from companion._ops._nn import shape_of
from companion._ops._nn_losses import sparse_softmax_cross_entropy_with_logits
from companion._ops._select import where
from companion.keras._keras_logits import get_keras_logits
from companion.keras.layers._keras_mask import set_keras_mask
from companion.keras.losses._binary_crossentropy import EPSILON
from companion.keras.losses._loss import LossFunctionWrapper
from companion.keras.losses._loss_inputs import float_tensor
from companion.keras.losses._reduction import Reduction


@op("keras_log_clipped")
def _log_clipped(p):
    eps = jnp.asarray(EPSILON, p.dtype)
    return jnp.log(jnp.clip(p, eps, 1 - eps))


def sparse_categorical_crossentropy(y_true, y_pred, from_logits=False, ignore_class=None, axis=-1):
    """Per-example cross-entropy of integer class labels (Keras's formula).

    ``y_true`` holds one class index per example, shaped like ``y_pred`` without its last
    axis or with a trailing 1. Probabilities are clipped to ``[1e-7, 1 - 1e-7]`` and used
    as ``softmax(log(p))`` (so they need not sum to 1 exactly).

    With ``ignore_class``, examples labelled with it get loss 0 and a Keras mask, so a `Loss`
    averages over the others only (Keras 3, e.g. for a segmentation's void class).

    Raises:
        ValueError: ``y_true`` does not hold one label per example of ``y_pred``.

    Example:
        >>> import companion as tf
        >>> print(tf.keras.losses.sparse_categorical_crossentropy([1], [[0.5, 0.5]]))
        companion.Tensor([0.6931472], shape=(1,), dtype=float32)
    """
    logits = get_keras_logits(y_pred)  # a Keras softmax's output: its logits (Keras 3)
    if logits is not None:
        y_pred, from_logits = logits, True
    y_pred = float_tensor(y_pred)
    labels = _labels(as_input(y_true), y_pred, axis)
    valid = None
    if ignore_class is not None:  # Keras 3: the ignored labels become 0 and their predictions 0
        valid = not_equal(labels, cast(ignore_class, labels.dtype))
        labels = where(valid, labels, zeros_like(labels))
        y_pred = y_pred * cast(expand_dims(valid, -1), y_pred.dtype)
    logits = y_pred if from_logits else _log_clipped(y_pred)
    losses = sparse_softmax_cross_entropy_with_logits(labels=labels, logits=logits)
    if valid is None:
        return losses
    losses = where(valid, losses, zeros_like(losses))
    set_keras_mask(losses, valid)
    return losses


class SparseCategoricalCrossentropy(LossFunctionWrapper):
    """Cross-entropy for integer labels, TF's ``tf.keras.losses.SparseCategoricalCrossentropy``.

    Args:
        from_logits: whether ``y_pred`` holds logits rather than probabilities.
        ignore_class: a label whose examples count for nothing (left out of the mean).

    Example:
        >>> import companion as tf
        >>> loss = tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True)
        >>> print(loss([0, 1], [[0.0, 0.0], [0.0, 0.0]]))
        companion.Tensor(0.6931472, shape=(), dtype=float32)
    """

    def __init__(self, from_logits=False, ignore_class=None, reduction=Reduction.SUM_OVER_BATCH_SIZE,
                 name="sparse_categorical_crossentropy"):
        super().__init__(sparse_categorical_crossentropy, reduction=reduction, name=name,
                         from_logits=from_logits, ignore_class=ignore_class)


def _labels(y_true, y_pred, axis):
    """Integer labels of shape ``y_pred.shape[:-1]`` (Keras flattens a trailing 1 away)."""
    pred_shape, true_shape = shape_of(y_pred), shape_of(y_true)
    if axis not in (-1, len(pred_shape) - 1) or not pred_shape:
        raise ValueError("sparse_categorical_crossentropy supports only axis=-1 (classes last) and "
                         f"predictions of rank 1 or more. Received axis={axis} and y_pred of shape "
                         f"{pred_shape}.")
    if len(true_shape) == len(pred_shape) and true_shape[-1] == 1:
        true_shape = true_shape[:-1]  # Keras 3 squeezes a trailing 1 away
    received = f"target.shape={true_shape}, output.shape={pred_shape}"
    if len(true_shape) != len(pred_shape) - 1:
        problem = f"Argument `output` must have rank (ndim) `target.ndim - 1`. Received: {received}"
    elif true_shape != pred_shape[:-1]:
        problem = ("Arguments `target` and `output` must have the same shape up until the last dimension: "
                   f"{received}")
    else:
        problem = None
    if problem is not None:
        raise ValueError(f"{problem}\nsparse_categorical_crossentropy: y_true must hold one class index "
                         f"per example: shape {pred_shape[:-1]} (or {pred_shape[:-1] + (1,)}) for y_pred of "
                         f"shape {pred_shape}. For one-hot labels use categorical_crossentropy.")
    if shape_of(y_true) != pred_shape[:-1]:
        y_true = reshape(y_true, pred_shape[:-1])
    if not y_true.dtype.is_integer:
        y_true = cast(y_true, _dtypes.int32)
    return y_true
