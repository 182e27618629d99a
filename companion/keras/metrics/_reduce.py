"""`Sum` and `Mean`: metrics reducing (weighted) values, and the `Reduce` base they share."""

import jax.numpy as jnp
import numpy as np

from companion._core._context import replica_example_mask
from companion._core._convert import as_input
from companion._core._op import op
from companion._ops._math import cast
from companion._ops._nn import shape_of
from companion.keras.losses._loss_inputs import float_tensor, match_weight_rank
from companion.keras.metrics._metric import Metric


@op("keras_metric_weighted_total", static=("trailing",))
def _weighted_total(values, weights, trailing):
    """(sum of weighted values, sum of weights); ``trailing`` value axes are first averaged."""
    if trailing:
        values = jnp.mean(values, axis=tuple(range(values.ndim - trailing, values.ndim)))
    weights = jnp.broadcast_to(weights, values.shape)
    return jnp.sum(values * weights), jnp.sum(weights)


@op("keras_metric_weighted_sum", static=("trailing",))
def _weighted_sum(values, weights, trailing):
    if trailing:
        values = jnp.sum(values, axis=tuple(range(values.ndim - trailing, values.ndim)))
    return jnp.sum(values * weights)


@op("keras_metric_divide_no_nan")
def _divide_no_nan(total, count):
    safe = jnp.where(count == 0, jnp.ones_like(count), count)
    return jnp.where(count == 0, jnp.zeros_like(total), total / safe)


class Reduce(Metric):
    """Accumulates ``values * sample_weight`` into ``total`` (and the weights into ``count``)."""

    _reduction = "sum"

    def __init__(self, name=None, dtype=None, **kwargs):
        super().__init__(name=name, dtype=dtype, **kwargs)
        self.total = self.add_weight(name="total")
        if self._reduction == "mean":
            self.count = self.add_weight(name="count")

    def update_state(self, values, sample_weight=None):
        """Adds ``values`` (weighted by ``sample_weight``, broadcast like Keras) to the state."""
        values = float_tensor(values, self._dtype)
        mask = replica_example_mask(values, flat=True)  # padding of an uneven final batch in Strategy.run
        if mask is not None:
            mask = cast(mask, self._dtype)
            sample_weight = mask if sample_weight is None else float_tensor(sample_weight, self._dtype) * mask
        weights, trailing = _weights(sample_weight, values, self._dtype, self.name)
        if self._reduction == "sum":
            self.total.assign_add(_weighted_sum(values, weights, trailing=trailing))
            return
        total, count = _weighted_total(values, weights, trailing=trailing)
        self.total.assign_add(total)
        self.count.assign_add(count)

    def result(self):
        if self._reduction == "sum":
            return self.total.value()
        return _divide_no_nan(self.total, self.count)


class Sum(Reduce):
    """The weighted sum of all values seen, TensorFlow's ``tf.keras.metrics.Sum``.

    Example:
        >>> import companion as tf
        >>> total = tf.keras.metrics.Sum()
        >>> print(total([1.0, 3.0, 5.0]))
        companion.Tensor(9.0, shape=(), dtype=float32)
    """

    _reduction = "sum"

    def __init__(self, name="sum", dtype=None, **kwargs):
        super().__init__(name=name, dtype=dtype, **kwargs)


class Mean(Reduce):
    """The weighted mean of all values seen, TensorFlow's ``tf.keras.metrics.Mean``.

    ``total += sum(values * sample_weight)``, ``count += sum(sample_weight)`` (the number
    of values when unweighted); the result is ``total / count`` (0 when ``count`` is 0).

    Example:
        >>> import companion as tf
        >>> mean = tf.keras.metrics.Mean()
        >>> print(mean([1.0, 3.0, 5.0], sample_weight=[1.0, 1.0, 0.0]))
        companion.Tensor(2.0, shape=(), dtype=float32)
    """

    _reduction = "mean"

    def __init__(self, name="mean", dtype=None, **kwargs):
        super().__init__(name=name, dtype=dtype, **kwargs)


def _weights(sample_weight, values, dtype, metric_name):
    """Weights broadcastable to ``values`` and how many trailing value axes to reduce first."""
    if sample_weight is None:
        return as_input(1.0, dtype), 0
    weights = as_input(sample_weight)
    if weights.dtype != dtype:
        weights = cast(weights, dtype)
    weights = match_weight_rank(weights, values)
    w_shape, v_shape = shape_of(weights), shape_of(values)
    if _broadcasts(w_shape, v_shape):
        return weights, 0
    trailing = len(v_shape) - len(w_shape)
    if trailing > 0 and _broadcasts(w_shape, v_shape[:len(w_shape)]):
        return weights, trailing  # Keras reduces the extra value axes first
    raise ValueError(f"{metric_name}: sample_weight of shape {w_shape} does not broadcast to the values "
                     f"of shape {v_shape}. Pass one weight per example, shape {v_shape[:1]}.")


def _broadcasts(shape, other):
    try:
        np.broadcast_shapes(shape, other)
    except ValueError:
        return False
    return True
