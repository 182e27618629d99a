"""Mean squared error: ``mean((y_pred - y_true) ** 2, axis=-1)`` per example."""

import jax.numpy as jnp

from companion._core._op import op
from companion.keras.losses import _graph_nodes
from companion.keras.losses._loss import LossFunctionWrapper
from companion.keras.losses._loss_inputs import loss_inputs
from companion.keras.losses._reduction import Reduction


@op("keras_mean_squared_error")
def _mean_squared_error(y_true, y_pred):
    return jnp.mean(jnp.square(y_pred - y_true), axis=-1)


def mean_squared_error(y_true, y_pred):
    """Per-example mean squared error, ``mean(square(y_pred - y_true), axis=-1)``.

    Example:
        >>> import companion as tf
        >>> print(tf.keras.losses.mean_squared_error([[0.0, 1.0]], [[1.0, 1.0]]))
        companion.Tensor([0.5], shape=(1,), dtype=float32)
    """
    y_true, y_pred = loss_inputs(y_true, y_pred, "mean_squared_error")
    _graph_nodes.name_loss_nodes(_graph_nodes.MEAN_SQUARED_ERROR)
    return _mean_squared_error(y_true, y_pred)


class MeanSquaredError(LossFunctionWrapper):
    """The mean of squares of errors, TensorFlow's ``tf.keras.losses.MeanSquaredError``.

    Example:
        >>> import companion as tf
        >>> mse = tf.keras.losses.MeanSquaredError()
        >>> print(mse([[0.0, 1.0], [0.0, 0.0]], [[1.0, 1.0], [1.0, 0.0]]))
        companion.Tensor(0.5, shape=(), dtype=float32)
    """

    def __init__(self, reduction=Reduction.SUM_OVER_BATCH_SIZE, name="mean_squared_error"):
        super().__init__(mean_squared_error, reduction=reduction, name=name)


mse = MSE = mean_squared_error
