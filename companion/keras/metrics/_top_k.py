"""Top-k accuracy: whether the true class is among the ``k`` highest predictions (ties count in)."""

import jax.numpy as jnp

from companion._core._op import op
from companion.keras.losses._loss_inputs import float_tensor
from companion.keras.metrics._mean_metric_wrapper import MeanMetricWrapper


@op("keras_in_top_k", static=("k",))
def _in_top_k(labels, y_pred, k):
    """1.0 where the class ``labels`` names ranks within the top ``k`` of its row of ``y_pred``: its
    rank is 1 + the number of larger predictions, so ties at the k-th place are all in (Keras 3)."""
    scores = y_pred.reshape(-1, y_pred.shape[-1])
    at_label = jnp.take_along_axis(scores, labels.reshape(-1, 1).astype(jnp.int32), axis=-1)
    at_label = jnp.where(jnp.isnan(at_label), -jnp.inf, at_label)
    rank = 1 + jnp.sum(scores > at_label, axis=-1)
    return (rank <= k).astype(jnp.float32).reshape(y_pred.shape[:-1])


def top_k_categorical_accuracy(y_true, y_pred, k=5):
    """Per example, 1.0 if the one-hot label's class is among the ``k`` highest predictions.

    Example:
        >>> import companion as tf
        >>> print(tf.keras.metrics.top_k_categorical_accuracy([[0, 0, 1], [0, 1, 0]],
        ...                                                  [[0.1, 0.5, 0.4], [0.6, 0.1, 0.3]], k=2))
        companion.Tensor([1. 0.], shape=(2,), dtype=float32)
    """
    y_true, y_pred = float_tensor(y_true), float_tensor(y_pred)
    return _in_top_k(_label_argmax(y_true), y_pred, k=int(k))


def sparse_top_k_categorical_accuracy(y_true, y_pred, k=5):
    """Per example, 1.0 if the integer label is among the ``k`` highest predictions' classes.

    Example:
        >>> import companion as tf
        >>> print(tf.keras.metrics.sparse_top_k_categorical_accuracy([2, 1], [[0.1, 0.5, 0.4],
        ...                                                                  [0.2, 0.7, 0.1]], k=1))
        companion.Tensor([0. 1.], shape=(2,), dtype=float32)
    """
    return _in_top_k(float_tensor(y_true), float_tensor(y_pred), k=int(k))


@op("keras_label_argmax")
def _label_argmax(y_true):
    return jnp.argmax(y_true, axis=-1)


class TopKCategoricalAccuracy(MeanMetricWrapper):
    """How often the one-hot label is in the top ``k`` predictions, TF's ``TopKCategoricalAccuracy``.

    Example:
        >>> import companion as tf
        >>> m = tf.keras.metrics.TopKCategoricalAccuracy(k=2)
        >>> print(m([[0, 0, 1], [0, 1, 0]], [[0.1, 0.5, 0.4], [0.6, 0.1, 0.3]]))
        companion.Tensor(0.5, shape=(), dtype=float32)
    """

    _direction = "up"  # larger values are better (what callbacks' mode="auto" reads)

    def __init__(self, k=5, name="top_k_categorical_accuracy", dtype=None):
        super().__init__(top_k_categorical_accuracy, name=name, dtype=dtype, k=k)


class SparseTopKCategoricalAccuracy(MeanMetricWrapper):
    """How often the integer label is in the top ``k`` predictions, TF's
    ``SparseTopKCategoricalAccuracy``.

    Example:
        >>> import companion as tf
        >>> m = tf.keras.metrics.SparseTopKCategoricalAccuracy(k=1)
        >>> print(m([2, 1], [[0.1, 0.5, 0.4], [0.2, 0.7, 0.1]]))
        companion.Tensor(0.5, shape=(), dtype=float32)
    """

    _direction = "up"  # larger values are better (what callbacks' mode="auto" reads)

    def __init__(self, k=5, name="sparse_top_k_categorical_accuracy", dtype=None):
        super().__init__(sparse_top_k_categorical_accuracy, name=name, dtype=dtype, k=k)
