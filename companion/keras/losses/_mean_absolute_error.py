"""Mean absolute error: ``mean(abs(y_pred - y_true), axis=-1)`` per example."""

import jax.numpy as jnp

from companion._core._op import op
from companion.keras.losses import _graph_nodes
from companion.keras.losses._loss import LossFunctionWrapper
from companion.keras.losses._loss_inputs import loss_inputs
from companion.keras.losses._reduction import Reduction


@op("keras_mean_absolute_error")
def _mean_absolute_error(y_true, y_pred):
    return jnp.mean(jnp.abs(y_pred - y_true), axis=-1)


def mean_absolute_error(y_true, y_pred):
    """Per-example mean absolute error, ``mean(abs(y_pred - y_true), axis=-1)``.

    Example:
        >>> import companion as tf
        >>> print(tf.keras.losses.mean_absolute_error([[0.0, 1.0]], [[1.0, 3.0]]))
        companion.Tensor([1.5], shape=(1,), dtype=float32)
    """
    y_true, y_pred = loss_inputs(y_true, y_pred, "mean_absolute_error")
    _graph_nodes.name_loss_nodes(_graph_nodes.MEAN_ABSOLUTE_ERROR)
    return _mean_absolute_error(y_true, y_pred)


class MeanAbsoluteError(LossFunctionWrapper):
    """The mean of absolute errors, TensorFlow's ``tf.keras.losses.MeanAbsoluteError``.

    Example:
        >>> import companion as tf
        >>> mae = tf.keras.losses.MeanAbsoluteError()
        >>> print(mae([[0.0, 1.0], [0.0, 0.0]], [[1.0, 1.0], [1.0, 0.0]]))
        companion.Tensor(0.5, shape=(), dtype=float32)
    """

    def __init__(self, reduction=Reduction.SUM_OVER_BATCH_SIZE, name="mean_absolute_error"):
        super().__init__(mean_absolute_error, reduction=reduction, name=name)


mae = MAE = mean_absolute_error
