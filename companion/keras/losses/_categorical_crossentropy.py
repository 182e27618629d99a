"""Categorical cross-entropy between one-hot (or probability) labels and predictions."""

import jax
import jax.numpy as jnp

from companion._core._context import state
from companion._core._op import op
from companion._core._tensor_names import fused_nodes
from companion._ops._nn import shape_of
from companion._ops._nn_losses import softmax_cross_entropy_scope
from companion.keras._keras_logits import get_keras_logits
from companion.keras.losses import _graph_nodes
from companion.keras.losses._binary_crossentropy import EPSILON
from companion.keras.losses._loss import LossFunctionWrapper
from companion.keras.losses._loss_inputs import float_tensor
from companion.keras.losses._reduction import Reduction


@op("keras_categorical_crossentropy", static=("from_logits", "label_smoothing", "axis"))
def _categorical_crossentropy(y_true, y_pred, from_logits, label_smoothing, axis):
    num_classes = y_pred.shape[axis]
    y_true = y_true * (1.0 - label_smoothing) + label_smoothing / num_classes
    if from_logits:
        return -jnp.sum(y_true * jax.nn.log_softmax(y_pred, axis=axis), axis=axis)
    eps = jnp.asarray(EPSILON, y_pred.dtype)
    p = y_pred / jnp.sum(y_pred, axis=axis, keepdims=True)
    p = jnp.clip(p, eps, 1 - eps)
    return -jnp.sum(y_true * jnp.log(p), axis=axis)


def categorical_crossentropy(y_true, y_pred, from_logits=False, label_smoothing=0.0, axis=-1):
    """Per-example categorical cross-entropy over the class ``axis`` (Keras's formula).

    Probabilities are renormalized to sum to 1, clipped to ``[1e-7, 1 - 1e-7]``, and the
    loss is ``-sum(y * log(p), axis)``; with ``from_logits=True``,
    ``-sum(y * log_softmax(y_pred), axis)``. ``label_smoothing`` s gives labels
    ``y * (1 - s) + s / num_classes``.

    Example:
        >>> import companion as tf
        >>> print(tf.keras.losses.categorical_crossentropy([[0.0, 1.0]], [[0.5, 0.5]]))
        companion.Tensor([0.6931472], shape=(1,), dtype=float32)
    """
    logits = get_keras_logits(y_pred)  # a Keras softmax's output: its logits (Keras 3)
    if logits is not None:
        y_pred, from_logits = logits, True
    y_pred = float_tensor(y_pred)
    y_true = float_tensor(y_true, y_pred.dtype)
    _check_shapes(shape_of(y_true), shape_of(y_pred))
    kwargs = {"from_logits": bool(from_logits), "label_smoothing": float(label_smoothing), "axis": int(axis)}
    if not state.staging:
        return _categorical_crossentropy(y_true, y_pred, **kwargs)
    if not from_logits:
        _graph_nodes.name_loss_nodes(_graph_nodes.categorical_crossentropy, label_smoothing)
        return _categorical_crossentropy(y_true, y_pred, **kwargs)
    # TF's graph: the smoothing's ops, then tf.nn.softmax_cross_entropy_with_logits in its scope
    fused_nodes(_graph_nodes.categorical_smoothing(label_smoothing))
    with softmax_cross_entropy_scope():
        return _categorical_crossentropy(y_true, y_pred, **kwargs)


class CategoricalCrossentropy(LossFunctionWrapper):
    """Cross-entropy for one-hot labels, TensorFlow's ``tf.keras.losses.CategoricalCrossentropy``.

    Args:
        from_logits: whether ``y_pred`` holds logits rather than probabilities.
        label_smoothing: in [0, 1]; labels become ``y * (1 - s) + s / num_classes``.
        axis: the class axis.

    Example:
        >>> import companion as tf
        >>> cce = tf.keras.losses.CategoricalCrossentropy(from_logits=True)
        >>> print(cce([[0.0, 1.0]], [[0.0, 0.0]]))
        companion.Tensor(0.6931472, shape=(), dtype=float32)
    """

    def __init__(self, from_logits=False, label_smoothing=0.0, axis=-1,
                 reduction=Reduction.SUM_OVER_BATCH_SIZE, name="categorical_crossentropy"):
        super().__init__(categorical_crossentropy, reduction=reduction, name=name,
                         from_logits=from_logits, label_smoothing=label_smoothing, axis=axis)


def _check_shapes(target, output):
    """Keras 3's checks (its first line), then what to do about one-hot and integer labels."""
    received = f"Received: target.shape={target}, output.shape={output}"
    if len(target) < 1:
        problem = f"Arguments `target` and `output` must be at least rank 1. {received}"
    elif len(target) != len(output):
        problem = f"Arguments `target` and `output` must have the same rank (ndim). {received}"
    elif any(a is not None and b is not None and a != b for a, b in zip(target, output)):
        problem = f"Arguments `target` and `output` must have the same shape. {received}"
    else:
        return
    raise ValueError(f"{problem}\ncategorical_crossentropy takes one-hot labels shaped like the predictions. "
                     "For integer class labels use sparse_categorical_crossentropy, or one-hot encode them "
                     "with companion.one_hot.")
