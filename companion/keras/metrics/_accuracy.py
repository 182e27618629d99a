"""Accuracy metrics: how often predictions match labels (exactly, thresholded, or by argmax)."""

import jax.numpy as jnp

from companion._core._convert import as_input
from companion._core._op import op
from companion._ops._math import cast
from companion._ops._nn import shape_of
from companion.keras.losses._loss_inputs import check_broadcastable, float_tensor
from companion.keras.metrics._mean_metric_wrapper import MeanMetricWrapper


@op("keras_accuracy")
def _accuracy(y_true, y_pred):
    return (y_true == y_pred).astype(jnp.float32)


@op("keras_binary_accuracy", static=("threshold",))
def _binary_accuracy(y_true, y_pred, threshold):
    y_pred = (y_pred > jnp.asarray(threshold, y_pred.dtype)).astype(y_pred.dtype)
    return jnp.mean((y_true == y_pred).astype(jnp.float32), axis=-1)


@op("keras_categorical_accuracy")
def _categorical_accuracy(y_true, y_pred):
    return (jnp.argmax(y_true, axis=-1) == jnp.argmax(y_pred, axis=-1)).astype(jnp.float32)


@op("keras_sparse_categorical_accuracy")
def _sparse_categorical_accuracy(y_true, y_pred):
    shape = y_true.shape
    if y_true.ndim == y_pred.ndim:  # labels of shape (n, 1): matches keep that shape
        y_true = jnp.squeeze(y_true, -1)
    matches = y_true == jnp.argmax(y_pred, axis=-1).astype(y_true.dtype)
    return matches.astype(jnp.float32).reshape(shape)


def accuracy(y_true, y_pred):
    """1.0 where ``y_pred`` equals ``y_true`` element by element, else 0.0 (float32).

    Example:
        >>> import companion as tf
        >>> print(tf.keras.metrics.accuracy([1, 2, 3], [1, 2, 4]))
        companion.Tensor([1. 1. 0.], shape=(3,), dtype=float32)
    """
    y_true, y_pred = _same_dtype(y_true, y_pred)
    check_broadcastable(y_true, y_pred, "accuracy")
    return _accuracy(y_true, y_pred)


def binary_accuracy(y_true, y_pred, threshold=0.5):
    """Per-example mean over the last axis of ``y_true == (y_pred > threshold)``.

    Example:
        >>> import companion as tf
        >>> print(tf.keras.metrics.binary_accuracy([[1.0], [0.0]], [[0.6], [0.7]]))
        companion.Tensor([1. 0.], shape=(2,), dtype=float32)
    """
    y_pred = float_tensor(y_pred)
    y_true = float_tensor(y_true, y_pred.dtype)
    check_broadcastable(y_true, y_pred, "binary_accuracy")
    return _binary_accuracy(y_true, y_pred, threshold=float(threshold))


def categorical_accuracy(y_true, y_pred):
    """1.0 where ``argmax(y_true) == argmax(y_pred)`` along the last axis, else 0.0.

    Example:
        >>> import companion as tf
        >>> print(tf.keras.metrics.categorical_accuracy([[0, 1], [1, 0]], [[0.2, 0.8], [0.3, 0.7]]))
        companion.Tensor([1. 0.], shape=(2,), dtype=float32)
    """
    y_true, y_pred = as_input(y_true), as_input(y_pred)
    if shape_of(y_true) != shape_of(y_pred):
        raise ValueError(f"categorical_accuracy: y_true and y_pred must have the same shape. Received "
                         f"y_true of shape {shape_of(y_true)} and y_pred of shape {shape_of(y_pred)}. "
                         "For integer class labels use sparse_categorical_accuracy.")
    return _categorical_accuracy(y_true, y_pred)


def sparse_categorical_accuracy(y_true, y_pred):
    """1.0 where the integer label ``y_true`` equals ``argmax(y_pred, axis=-1)``, else 0.0.

    Example:
        >>> import companion as tf
        >>> print(tf.keras.metrics.sparse_categorical_accuracy([1, 0], [[0.2, 0.8], [0.3, 0.7]]))
        companion.Tensor([1. 0.], shape=(2,), dtype=float32)
    """
    y_true, y_pred = as_input(y_true), as_input(y_pred)
    true_shape, pred_shape = shape_of(y_true), shape_of(y_pred)
    if not pred_shape or true_shape not in (pred_shape[:-1], pred_shape[:-1] + (1,)):
        raise ValueError(f"sparse_categorical_accuracy: y_true must hold one class index per example: "
                         f"shape {pred_shape[:-1]} (or with a trailing 1) for y_pred of shape {pred_shape}. "
                         f"Received y_true of shape {true_shape}. For one-hot labels use "
                         "categorical_accuracy.")
    return _sparse_categorical_accuracy(y_true, y_pred)


class Accuracy(MeanMetricWrapper):
    """How often predictions equal labels, TensorFlow's ``tf.keras.metrics.Accuracy``.

    Example:
        >>> import companion as tf
        >>> print(tf.keras.metrics.Accuracy()([[1], [2], [3], [4]], [[0], [2], [3], [4]]))
        companion.Tensor(0.75, shape=(), dtype=float32)
    """

    _direction = "up"  # larger values are better (what callbacks' mode="auto" reads)

    def __init__(self, name="accuracy", dtype=None):
        super().__init__(accuracy, name=name, dtype=dtype)


class BinaryAccuracy(MeanMetricWrapper):
    """How often ``y_pred > threshold`` equals binary labels, TF's ``BinaryAccuracy``.

    Example:
        >>> import companion as tf
        >>> print(tf.keras.metrics.BinaryAccuracy()([[1], [1], [0], [0]], [[0.98], [1], [0], [0.6]]))
        companion.Tensor(0.75, shape=(), dtype=float32)
    """

    _direction = "up"  # larger values are better (what callbacks' mode="auto" reads)

    def __init__(self, name="binary_accuracy", dtype=None, threshold=0.5):
        super().__init__(binary_accuracy, name=name, dtype=dtype, threshold=threshold)


class CategoricalAccuracy(MeanMetricWrapper):
    """How often the argmax of predictions matches that of one-hot labels.

    Example:
        >>> import companion as tf
        >>> print(tf.keras.metrics.CategoricalAccuracy()([[0, 0, 1], [0, 1, 0]],
        ...                                              [[0.1, 0.9, 0.8], [0.05, 0.95, 0]]))
        companion.Tensor(0.5, shape=(), dtype=float32)
    """

    _direction = "up"  # larger values are better (what callbacks' mode="auto" reads)

    def __init__(self, name="categorical_accuracy", dtype=None):
        super().__init__(categorical_accuracy, name=name, dtype=dtype)


class SparseCategoricalAccuracy(MeanMetricWrapper):
    """How often the argmax of predictions equals integer labels.

    Example:
        >>> import companion as tf
        >>> print(tf.keras.metrics.SparseCategoricalAccuracy()([[2], [1]],
        ...                                                    [[0.1, 0.6, 0.3], [0.05, 0.95, 0]]))
        companion.Tensor(0.5, shape=(), dtype=float32)
    """

    _direction = "up"  # larger values are better (what callbacks' mode="auto" reads)

    def __init__(self, name="sparse_categorical_accuracy", dtype=None):
        super().__init__(sparse_categorical_accuracy, name=name, dtype=dtype)


def _same_dtype(y_true, y_pred):
    y_true, y_pred = as_input(y_true), as_input(y_pred)
    if y_pred.dtype != y_true.dtype:
        y_pred = cast(y_pred, y_true.dtype)
    return y_true, y_pred
