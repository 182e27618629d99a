"""Binary cross-entropy between labels in [0, 1] and probabilities (or logits)."""

import jax.numpy as jnp

from companion._core._op import op
from companion.keras._keras_logits import get_keras_logits
from companion.keras.losses import _graph_nodes
from companion.keras.losses._loss import LossFunctionWrapper
from companion.keras.losses._loss_inputs import loss_inputs
from companion.keras.losses._reduction import Reduction

EPSILON = 1e-7  # Keras's backend.epsilon(): probabilities are clipped to [EPSILON, 1 - EPSILON]


@op("keras_binary_crossentropy", static=("from_logits", "label_smoothing", "axis"))
def _binary_crossentropy(y_true, y_pred, from_logits, label_smoothing, axis):
    y_true = y_true * (1.0 - label_smoothing) + 0.5 * label_smoothing
    if from_logits:
        # TF's sigmoid_cross_entropy_with_logits: `where` on ``z >= 0`` gives the gradient
        # sigmoid(z) - y at z == 0 too (jnp.maximum and jnp.abs would split or drop it there)
        positive = y_pred >= 0
        relu = jnp.where(positive, y_pred, jnp.zeros_like(y_pred))
        neg_abs = jnp.where(positive, -y_pred, y_pred)
        losses = relu - y_pred * y_true + jnp.log1p(jnp.exp(neg_abs))
    else:
        eps = jnp.asarray(EPSILON, y_pred.dtype)
        p = jnp.clip(y_pred, eps, 1 - eps)
        losses = -(y_true * jnp.log(p) + (1 - y_true) * jnp.log(1 - p))
    return jnp.mean(losses, axis=axis)


def binary_crossentropy(y_true, y_pred, from_logits=False, label_smoothing=0.0, axis=-1):
    """Per-example binary cross-entropy, averaged over ``axis`` (Keras's formula).

    Probabilities are clipped to ``[1e-7, 1 - 1e-7]`` and the loss is
    ``-(y * log(p) + (1 - y) * log(1 - p))`` (Keras 3); with ``from_logits=True``, or when
    ``y_pred`` is a Keras sigmoid's output (which keeps its logits), it is the overflow-free
    ``max(x, 0) - x * y + log(1 + exp(-|x|))`` of the logits. ``label_smoothing``
    moves labels towards 0.5: ``y * (1 - s) + 0.5 * s``.

    Example:
        >>> import companion as tf
        >>> print(tf.keras.losses.binary_crossentropy([[1.0, 0.0]], [[0.5, 0.5]]))
        companion.Tensor([0.6931472], shape=(1,), dtype=float32)
    """
    logits = get_keras_logits(y_pred)
    if logits is not None:
        y_pred, from_logits = logits, True
    y_true, y_pred = loss_inputs(y_true, y_pred, "binary_crossentropy")
    _graph_nodes.name_loss_nodes(_graph_nodes.binary_crossentropy, from_logits, label_smoothing)
    return _binary_crossentropy(y_true, y_pred, from_logits=bool(from_logits),
                                label_smoothing=float(label_smoothing), axis=int(axis))


class BinaryCrossentropy(LossFunctionWrapper):
    """Cross-entropy for binary (0 or 1) labels, TensorFlow's ``tf.keras.losses.BinaryCrossentropy``.

    Args:
        from_logits: whether ``y_pred`` holds logits rather than probabilities.
        label_smoothing: in [0, 1]; labels become ``y * (1 - s) + 0.5 * s``.
        axis: the axis the per-element losses are averaged over.

    Example:
        >>> import companion as tf
        >>> bce = tf.keras.losses.BinaryCrossentropy(from_logits=True)
        >>> print(bce([1.0, 0.0], [0.0, 0.0]))
        companion.Tensor(0.6931472, shape=(), dtype=float32)
    """

    def __init__(self, from_logits=False, label_smoothing=0.0, axis=-1,
                 reduction=Reduction.SUM_OVER_BATCH_SIZE, name="binary_crossentropy"):
        super().__init__(binary_crossentropy, reduction=reduction, name=name, from_logits=from_logits,
                         label_smoothing=label_smoothing, axis=axis)
