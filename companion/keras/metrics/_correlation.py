"""`PearsonCorrelation` and `ConcordanceCorrelation` (Keras 3.15): per-example correlations of labels
and predictions along ``axis``, averaged over batches."""

import jax.numpy as jnp

from companion._core._op import op
from companion.keras.losses._loss_inputs import float_tensor, squeeze_or_expand
from companion.keras.metrics._mean_metric_wrapper import MeanMetricWrapper

_EPSILON = 1e-7


@op("keras_pearson_correlation", static=("axis",))
def _pearson(y_true, y_pred, axis):
    t = y_true - jnp.mean(y_true, axis=axis, keepdims=True)
    p = y_pred - jnp.mean(y_pred, axis=axis, keepdims=True)
    return jnp.mean(t / jnp.std(t, axis=axis, keepdims=True) * (p / jnp.std(p, axis=axis, keepdims=True)),
                    axis=axis)


@op("keras_concordance_correlation", static=("axis",))
def _concordance(y_true, y_pred, axis):
    true_mean = jnp.mean(y_true, axis=axis, keepdims=True)
    pred_mean = jnp.mean(y_pred, axis=axis, keepdims=True)
    true_var = jnp.var(y_true - true_mean, axis=axis, keepdims=True)
    pred_var = jnp.var(y_pred - pred_mean, axis=axis, keepdims=True)
    # Keras 3 centres both factors on the predictions' mean (its numbers, kept)
    covariance = (y_true - pred_mean) * (y_pred - pred_mean)
    norm = true_var + pred_var + jnp.square(true_mean - pred_mean)
    return jnp.mean(2 * covariance / (norm + _EPSILON), axis=axis)


def _inputs(y_true, y_pred):
    y_pred = float_tensor(y_pred)
    y_pred, y_true = squeeze_or_expand(y_pred, float_tensor(y_true, y_pred.dtype))
    return y_true, y_pred


def pearson_correlation(y_true, y_pred, axis=-1):
    """Per-example Pearson correlation of ``y_true`` and ``y_pred`` along ``axis``.

    Example:
        >>> import companion as tf
        >>> round(float(tf.keras.metrics.pearson_correlation([[1.0, 2.0, 3.0]], [[2.0, 4.0, 7.0]])[0]), 4)
        0.9934
    """
    return _pearson(*_inputs(y_true, y_pred), axis=int(axis))


def concordance_correlation(y_true, y_pred, axis=-1):
    """Per-example concordance correlation along ``axis``, with Keras 3's formula."""
    return _concordance(*_inputs(y_true, y_pred), axis=int(axis))


class PearsonCorrelation(MeanMetricWrapper):
    """The mean over examples of `pearson_correlation`."""

    _direction = "up"  # larger values are better (what callbacks' mode="auto" reads)

    def __init__(self, name="pearson_correlation", dtype=None, axis=-1):
        super().__init__(pearson_correlation, name=name, dtype=dtype, axis=axis)
        self.axis = axis


class ConcordanceCorrelation(MeanMetricWrapper):
    """The mean over examples of `concordance_correlation`."""

    _direction = "up"  # larger values are better (what callbacks' mode="auto" reads)

    def __init__(self, name="concordance_correlation", dtype=None, axis=-1):
        super().__init__(concordance_correlation, name=name, dtype=dtype, axis=axis)
        self.axis = axis
