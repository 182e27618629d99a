"""Keras's other per-example losses: a formula on ``(y_true, y_pred)`` reduced over the last axis.

``MeanAbsolutePercentageError``, ``MeanSquaredLogarithmicError``, ``LogCosh``, ``Poisson``,
``KLDivergence``, ``Hinge``, ``SquaredHinge``, ``CategoricalHinge`` and ``CosineSimilarity``,
each as Keras 3 computes it (``epsilon`` = 1e-7 guards logarithms and divisions).
"""

import jax
import jax.numpy as jnp

from companion._core._op import op
from companion.keras.losses import _graph_nodes
from companion.keras.losses._loss import Loss, LossFunctionWrapper
from companion.keras.losses._loss_inputs import loss_inputs
from companion.keras.losses._reduction import Reduction

EPSILON = 1e-7


def _hinge_labels(y_true):
    """Labels of 0 and 1 become -1 and 1 (Keras's hinge losses take either)."""
    binary = jnp.all((y_true == 0) | (y_true == 1))
    return jnp.where(binary, 2 * y_true - 1, y_true)


def _l2_normalize(x, axis):
    return x * jax.lax.rsqrt(jnp.maximum(jnp.sum(jnp.square(x), axis=axis, keepdims=True), 1e-12))


def _mape(y_true, y_pred):
    diff = jnp.abs((y_true - y_pred) / jnp.maximum(jnp.abs(y_true), EPSILON))
    return 100.0 * jnp.mean(diff, axis=-1)


def _msle(y_true, y_pred):
    first = jnp.log(jnp.maximum(y_pred, EPSILON) + 1.0)
    second = jnp.log(jnp.maximum(y_true, EPSILON) + 1.0)
    return jnp.mean(jnp.square(first - second), axis=-1)


def _log_cosh(y_true, y_pred):
    x = y_pred - y_true
    return jnp.mean(x + jax.nn.softplus(-2.0 * x) - jnp.log(2.0).astype(x.dtype), axis=-1)


def _poisson(y_true, y_pred):
    return jnp.mean(y_pred - y_true * jnp.log(y_pred + EPSILON), axis=-1)


def _kl_divergence(y_true, y_pred):
    y_true, y_pred = jnp.clip(y_true, EPSILON, 1), jnp.clip(y_pred, EPSILON, 1)
    return jnp.sum(y_true * jnp.log(y_true / y_pred), axis=-1)


def _hinge(y_true, y_pred):
    return jnp.mean(jnp.maximum(1.0 - _hinge_labels(y_true) * y_pred, 0.0), axis=-1)


def _squared_hinge(y_true, y_pred):
    return jnp.mean(jnp.square(jnp.maximum(1.0 - _hinge_labels(y_true) * y_pred, 0.0)), axis=-1)


def _categorical_hinge(y_true, y_pred):
    positive = jnp.sum(y_true * y_pred, axis=-1)
    negative = jnp.max((1.0 - y_true) * y_pred, axis=-1)
    return jnp.maximum(negative - positive + 1.0, 0.0)


def _cosine_similarity(y_true, y_pred, axis):
    return -jnp.sum(_l2_normalize(y_true, axis) * _l2_normalize(y_pred, axis), axis=axis)


def _loss_function(name, formula, doc, static=()):
    """The per-example function ``name(y_true, y_pred, ...)`` computing ``formula`` as one op (named
    in a function's graph as TF names the last of Keras's ops, `_graph_nodes`)."""
    kernel = op(f"keras_{name}", static=static)(formula)
    nodes = getattr(_graph_nodes, name.upper())

    def function(y_true, y_pred, **params):
        y_true, y_pred = loss_inputs(y_true, y_pred, name)
        _graph_nodes.name_loss_nodes(nodes)
        return kernel(y_true, y_pred, **params)

    function.__name__ = function.__qualname__ = name
    function.__doc__ = doc
    return function


mean_absolute_percentage_error = _loss_function(
    "mean_absolute_percentage_error", _mape,
    "Per-example ``100 * mean(abs((y_true - y_pred) / max(abs(y_true), 1e-7)), axis=-1)``.")
mean_squared_logarithmic_error = _loss_function(
    "mean_squared_logarithmic_error", _msle,
    "Per-example ``mean(square(log(max(y_pred, 1e-7) + 1) - log(max(y_true, 1e-7) + 1)), axis=-1)``.")
log_cosh = _loss_function(
    "log_cosh", _log_cosh, "Per-example ``mean(log(cosh(y_pred - y_true)), axis=-1)``, computed stably.")
poisson = _loss_function(
    "poisson", _poisson, "Per-example ``mean(y_pred - y_true * log(y_pred + 1e-7), axis=-1)``.")
kl_divergence = _loss_function(
    "kl_divergence", _kl_divergence,
    "Per-example ``sum(y_true * log(y_true / y_pred), axis=-1)``, both clipped to [1e-7, 1].")
hinge = _loss_function(
    "hinge", _hinge, "Per-example ``mean(max(1 - y_true * y_pred, 0), axis=-1)``; labels 0/1 become -1/1.")
squared_hinge = _loss_function(
    "squared_hinge", _squared_hinge,
    "Per-example ``mean(square(max(1 - y_true * y_pred, 0)), axis=-1)``; labels 0/1 become -1/1.")
categorical_hinge = _loss_function(
    "categorical_hinge", _categorical_hinge,
    "Per-example ``max(max((1 - y_true) * y_pred) - sum(y_true * y_pred) + 1, 0)`` (one-hot labels).")
_cosine = _loss_function(
    "cosine_similarity", _cosine_similarity, "", static=("axis",))


def cosine_similarity(y_true, y_pred, axis=-1):
    """Per-example ``-sum(l2_normalize(y_true) * l2_normalize(y_pred), axis)``: -1 for the same
    direction, 0 for orthogonal vectors.

    Example:
        >>> import companion as tf
        >>> print(tf.keras.losses.cosine_similarity([[1.0, 0.0]], [[2.0, 0.0]]))
        companion.Tensor([-1.], shape=(1,), dtype=float32)
    """
    return _cosine(y_true, y_pred, axis=int(axis))


mape = MAPE = mean_absolute_percentage_error
msle = MSLE = mean_squared_logarithmic_error
logcosh = log_cosh
kld = KLD = kullback_leibler_divergence = kl_divergence


def _loss_class(class_name, function, default_name, summary):
    def __init__(self, reduction=Reduction.SUM_OVER_BATCH_SIZE, name=default_name):
        LossFunctionWrapper.__init__(self, function, reduction=reduction, name=name)

    return type(class_name, (LossFunctionWrapper,), {
        "__init__": __init__, "__module__": __name__,
        "__doc__": f"{summary}, TensorFlow's ``tf.keras.losses.{class_name}`` (see `{function.__name__}`)."})


MeanAbsolutePercentageError = _loss_class(
    "MeanAbsolutePercentageError", mean_absolute_percentage_error, "mean_absolute_percentage_error",
    "The mean absolute percentage error")
MeanSquaredLogarithmicError = _loss_class(
    "MeanSquaredLogarithmicError", mean_squared_logarithmic_error, "mean_squared_logarithmic_error",
    "The mean squared logarithmic error")
LogCosh = _loss_class("LogCosh", log_cosh, "log_cosh", "The logarithm of the hyperbolic cosine of the error")
Poisson = _loss_class("Poisson", poisson, "poisson", "The Poisson loss")
KLDivergence = _loss_class("KLDivergence", kl_divergence, "kl_divergence",
                           "The Kullback-Leibler divergence")
Hinge = _loss_class("Hinge", hinge, "hinge", "The hinge loss")
SquaredHinge = _loss_class("SquaredHinge", squared_hinge, "squared_hinge", "The squared hinge loss")
CategoricalHinge = _loss_class("CategoricalHinge", categorical_hinge, "categorical_hinge",
                               "The categorical hinge loss")


class CosineSimilarity(LossFunctionWrapper):
    """The negated cosine similarity of labels and predictions along ``axis``, TensorFlow's
    ``tf.keras.losses.CosineSimilarity``.

    Example:
        >>> import companion as tf
        >>> print(tf.keras.losses.CosineSimilarity()([[1.0, 0.0]], [[1.0, 1.0]]))
        companion.Tensor(-0.70710677, shape=(), dtype=float32)
    """

    def __init__(self, axis=-1, reduction=Reduction.SUM_OVER_BATCH_SIZE, name="cosine_similarity"):
        super().__init__(cosine_similarity, reduction=reduction, name=name, axis=axis)

    def get_config(self):
        return Loss.get_config(self)  # Keras 3.15's CosineSimilarity config leaves ``axis`` out
