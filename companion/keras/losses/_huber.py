"""Huber loss: quadratic for errors up to ``delta``, linear beyond."""

import jax.numpy as jnp

from companion._core._op import op
from companion.keras.losses import _graph_nodes
from companion.keras.losses._loss import Loss, LossFunctionWrapper
from companion.keras.losses._loss_inputs import loss_inputs
from companion.keras.losses._reduction import Reduction


@op("keras_huber", static=("delta",))
def _huber(y_true, y_pred, delta):
    error = y_pred - y_true
    abs_error = jnp.abs(error)
    delta = jnp.asarray(delta, error.dtype)
    quadratic = 0.5 * jnp.square(error)
    linear = delta * abs_error - 0.5 * jnp.square(delta)
    return jnp.mean(jnp.where(abs_error <= delta, quadratic, linear), axis=-1)


def huber(y_true, y_pred, delta=1.0):
    """Per-example Huber loss, averaged over the last axis.

    With ``x = y_pred - y_true``: ``0.5 * x**2`` where ``|x| <= delta``, else
    ``delta * |x| - 0.5 * delta**2``.

    Example:
        >>> import companion as tf
        >>> print(tf.keras.losses.huber([[0.0, 0.0]], [[0.5, 3.0]]))
        companion.Tensor([1.3125], shape=(1,), dtype=float32)
    """
    y_true, y_pred = loss_inputs(y_true, y_pred, "huber")
    _graph_nodes.name_loss_nodes(_graph_nodes.HUBER)
    return _huber(y_true, y_pred, delta=float(delta))


class Huber(LossFunctionWrapper):
    """The Huber loss, TensorFlow's ``tf.keras.losses.Huber``.

    Args:
        delta: the error size where the loss turns from quadratic to linear.

    Example:
        >>> import companion as tf
        >>> print(tf.keras.losses.Huber(delta=1.0)([0.0, 0.0], [0.5, 3.0]))
        companion.Tensor(1.3125, shape=(), dtype=float32)
    """

    def __init__(self, delta=1.0, reduction=Reduction.SUM_OVER_BATCH_SIZE, name="huber_loss"):
        super().__init__(huber, reduction=reduction, name=name, delta=delta)

    def get_config(self):
        return Loss.get_config(self)  # Keras 3.15's Huber config leaves ``delta`` out
