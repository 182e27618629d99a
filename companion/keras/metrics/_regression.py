"""Regression metrics: mean squared error, its root, and mean absolute error."""

import jax.numpy as jnp

from companion._core._convert import as_input
from companion._core._op import op
from companion.keras.losses._loss_inputs import float_tensor, squeeze_or_expand
from companion.keras.losses._mean_absolute_error import mean_absolute_error
from companion.keras.losses._mean_squared_error import mean_squared_error
from companion.keras.metrics._mean_metric_wrapper import MeanMetricWrapper
from companion.keras.metrics._reduce import Mean


@op("keras_squared_difference")
def _squared_difference(y_true, y_pred):
    return jnp.square(y_pred - y_true)


@op("keras_root_of_mean")
def _root_of_mean(total, count):
    safe = jnp.where(count == 0, jnp.ones_like(count), count)
    return jnp.sqrt(jnp.where(count == 0, jnp.zeros_like(total), total / safe))


class MeanSquaredError(MeanMetricWrapper):
    """The running mean of ``mean_squared_error``, TF's ``tf.keras.metrics.MeanSquaredError``.

    Example:
        >>> import companion as tf
        >>> print(tf.keras.metrics.MeanSquaredError()([[0, 1], [0, 0]], [[1, 1], [0, 0]]))
        companion.Tensor(0.25, shape=(), dtype=float32)
    """

    def __init__(self, name="mean_squared_error", dtype=None):
        super().__init__(mean_squared_error, name=name, dtype=dtype)


class MeanAbsoluteError(MeanMetricWrapper):
    """The running mean of ``mean_absolute_error``, TF's ``tf.keras.metrics.MeanAbsoluteError``.

    Example:
        >>> import companion as tf
        >>> print(tf.keras.metrics.MeanAbsoluteError()([[0, 1], [0, 0]], [[1, 1], [0, 0]]))
        companion.Tensor(0.25, shape=(), dtype=float32)
    """

    def __init__(self, name="mean_absolute_error", dtype=None):
        super().__init__(mean_absolute_error, name=name, dtype=dtype)


class RootMeanSquaredError(Mean):
    """``sqrt`` of the weighted mean of all squared errors seen, TF's ``RootMeanSquaredError``.

    Example:
        >>> import companion as tf
        >>> print(tf.keras.metrics.RootMeanSquaredError()([[0, 1], [0, 0]], [[1, 1], [0, 0]]))
        companion.Tensor(0.5, shape=(), dtype=float32)
    """

    _direction = "down"  # smaller values are better (what callbacks' mode="auto" reads)

    def __init__(self, name="root_mean_squared_error", dtype=None):
        super().__init__(name=name, dtype=dtype)

    def update_state(self, y_true, y_pred, sample_weight=None):
        """Adds the squared errors of this batch, weighted by ``sample_weight``."""
        y_true = float_tensor(as_input(y_true), self._dtype)
        y_pred = float_tensor(as_input(y_pred), self._dtype)
        y_pred, y_true = squeeze_or_expand(y_pred, y_true)
        super().update_state(_squared_difference(y_true, y_pred), sample_weight=sample_weight)

    def result(self):
        return _root_of_mean(self.total, self.count)
