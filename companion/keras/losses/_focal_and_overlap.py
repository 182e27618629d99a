"""Focal cross-entropies (down-weighting easy examples: Lin et al., 2017) and the overlap losses
Dice and Tversky, as Keras 3 computes them (``epsilon`` 1e-7)."""

import jax
import jax.numpy as jnp

from companion._core._op import op
from companion.keras.losses import _graph_nodes
from companion.keras.losses._loss import LossFunctionWrapper
from companion.keras.losses._loss_inputs import loss_inputs
from companion.keras.losses._reduction import Reduction

EPSILON = 1e-7


@op("keras_binary_focal_crossentropy",
    static=("apply_class_balancing", "alpha", "gamma", "from_logits", "label_smoothing", "axis"))
def _binary_focal(y_true, y_pred, apply_class_balancing, alpha, gamma, from_logits, label_smoothing, axis):
    if label_smoothing:
        y_true = y_true * (1.0 - label_smoothing) + 0.5 * label_smoothing
    if from_logits:
        y_pred = jax.nn.sigmoid(y_pred)
    p = jnp.clip(y_pred, EPSILON, 1 - EPSILON)
    bce = -(y_true * jnp.log(p) + (1 - y_true) * jnp.log(1 - p))
    p_t = y_true * y_pred + (1 - y_true) * (1 - y_pred)
    focal = jnp.power(1.0 - p_t, gamma) * bce
    if apply_class_balancing:
        focal = (y_true * alpha + (1 - y_true) * (1 - alpha)) * focal
    return jnp.mean(focal, axis=axis)


def binary_focal_crossentropy(y_true, y_pred, apply_class_balancing=False, alpha=0.25, gamma=2.0,
                              from_logits=False, label_smoothing=0.0, axis=-1):
    """Per-example binary cross-entropy scaled by ``(1 - p_t) ** gamma`` (``p_t`` the probability
    given to the true label), and by ``alpha`` / ``1 - alpha`` per class with
    ``apply_class_balancing``; averaged over ``axis``.

    Example:
        >>> import companion as tf
        >>> loss = tf.keras.losses.binary_focal_crossentropy([[0, 1], [0, 0]], [[0.6, 0.4], [0.4, 0.6]])
        >>> loss.numpy().round(3)
        array([0.33 , 0.206], dtype=float32)
    """
    y_true, y_pred = loss_inputs(y_true, y_pred, "binary_focal_crossentropy")
    _graph_nodes.name_loss_nodes(_graph_nodes.binary_focal_crossentropy, from_logits, label_smoothing,
                                 apply_class_balancing)
    return _binary_focal(y_true, y_pred, apply_class_balancing=bool(apply_class_balancing),
                         alpha=float(alpha), gamma=float(gamma), from_logits=bool(from_logits),
                         label_smoothing=float(label_smoothing), axis=int(axis))


@op("keras_categorical_focal_crossentropy",
    static=("alpha", "gamma", "from_logits", "label_smoothing", "axis"))
def _categorical_focal(y_true, y_pred, alpha, gamma, from_logits, label_smoothing, axis):
    if label_smoothing:
        y_true = y_true * (1.0 - label_smoothing) + label_smoothing / y_true.shape[-1]
    if from_logits:
        y_pred = jax.nn.softmax(y_pred, axis=axis)
    output = jnp.clip(y_pred / jnp.sum(y_pred, axis=axis, keepdims=True), EPSILON, 1.0 - EPSILON)
    focal = jnp.power(1.0 - output, gamma) * alpha * (-y_true * jnp.log(output))
    return jnp.sum(focal, axis=axis)


def categorical_focal_crossentropy(y_true, y_pred, alpha=0.25, gamma=2.0, from_logits=False,
                                   label_smoothing=0.0, axis=-1):
    """Per-example categorical cross-entropy (one-hot labels) with each class's term scaled by
    ``alpha * (1 - p) ** gamma``; probabilities are renormalized and clipped to [1e-7, 1 - 1e-7]."""
    y_true, y_pred = loss_inputs(y_true, y_pred, "categorical_focal_crossentropy")
    _graph_nodes.name_loss_nodes(_graph_nodes.categorical_focal_crossentropy, from_logits, label_smoothing)
    return _categorical_focal(y_true, y_pred, alpha=float(alpha), gamma=float(gamma),
                              from_logits=bool(from_logits), label_smoothing=float(label_smoothing),
                              axis=int(axis))


def _axes(axis):
    return None if axis is None else (tuple(axis) if isinstance(axis, (list, tuple)) else int(axis))


@op("keras_dice", static=("axis",))
def _dice(y_true, y_pred, axis):
    intersection = jnp.sum(y_true * y_pred, axis=axis)
    return 1 - 2.0 * intersection / (jnp.sum(y_true, axis=axis) + jnp.sum(y_pred, axis=axis) + EPSILON)


def dice(y_true, y_pred, axis=None):
    """``1 - 2 |y_true * y_pred| / (|y_true| + |y_pred| + 1e-7)``, sums over ``axis`` (all by default).

    Example:
        >>> import companion as tf
        >>> round(float(tf.keras.losses.dice([[1.0, 0.0]], [[0.5, 0.5]])), 4)
        0.5
    """
    y_true, y_pred = loss_inputs(y_true, y_pred, "dice")
    _graph_nodes.name_loss_nodes(_graph_nodes.DICE)
    return _dice(y_true, y_pred, axis=_axes(axis))


@op("keras_tversky", static=("alpha", "beta", "axis"))
def _tversky(y_true, y_pred, alpha, beta, axis):
    intersection = jnp.sum(y_true * y_pred, axis=axis)
    false_positives = jnp.sum((1 - y_pred) * y_true, axis=axis)
    false_negatives = jnp.sum(y_pred * (1 - y_true), axis=axis)
    return 1 - intersection / (intersection + false_positives * alpha + false_negatives * beta + EPSILON)


def tversky(y_true, y_pred, alpha=0.5, beta=0.5, axis=None):
    """``1 - TP / (TP + alpha * FP + beta * FN + 1e-7)`` with Keras's soft counts (its ``fp`` sums
    ``(1 - y_pred) * y_true``); ``alpha = beta = 0.5`` gives `dice`."""
    y_true, y_pred = loss_inputs(y_true, y_pred, "tversky")
    _graph_nodes.name_loss_nodes(_graph_nodes.TVERSKY)
    return _tversky(y_true, y_pred, alpha=float(alpha), beta=float(beta), axis=_axes(axis))


class BinaryFocalCrossentropy(LossFunctionWrapper):
    """`binary_focal_crossentropy` as a loss, TensorFlow's ``tf.keras.losses.BinaryFocalCrossentropy``."""

    def __init__(self, apply_class_balancing=False, alpha=0.25, gamma=2.0, from_logits=False,
                 label_smoothing=0.0, axis=-1, reduction=Reduction.SUM_OVER_BATCH_SIZE,
                 name="binary_focal_crossentropy"):
        super().__init__(binary_focal_crossentropy, reduction=reduction, name=name, from_logits=from_logits,
                         label_smoothing=label_smoothing, axis=axis,
                         apply_class_balancing=apply_class_balancing, alpha=alpha, gamma=gamma)


class CategoricalFocalCrossentropy(LossFunctionWrapper):
    """`categorical_focal_crossentropy` as a loss, ``tf.keras.losses.CategoricalFocalCrossentropy``."""

    def __init__(self, alpha=0.25, gamma=2.0, from_logits=False, label_smoothing=0.0, axis=-1,
                 reduction=Reduction.SUM_OVER_BATCH_SIZE, name="categorical_focal_crossentropy"):
        super().__init__(categorical_focal_crossentropy, reduction=reduction, name=name,
                         from_logits=from_logits, label_smoothing=label_smoothing, axis=axis, alpha=alpha,
                         gamma=gamma)


class Dice(LossFunctionWrapper):
    """`dice` as a loss, TensorFlow's ``tf.keras.losses.Dice``."""

    def __init__(self, reduction=Reduction.SUM_OVER_BATCH_SIZE, name="dice", axis=None):
        super().__init__(dice, reduction=reduction, name=name, axis=axis)


class Tversky(LossFunctionWrapper):
    """`tversky` as a loss, TensorFlow's ``tf.keras.losses.Tversky``."""

    def __init__(self, alpha=0.5, beta=0.5, reduction=Reduction.SUM_OVER_BATCH_SIZE, name="tversky",
                 axis=None):
        super().__init__(tversky, reduction=reduction, name=name, alpha=alpha, beta=beta, axis=axis)
