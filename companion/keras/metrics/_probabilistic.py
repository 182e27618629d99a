"""Metrics that are the running mean of a loss: the cross-entropies, KL divergence, Poisson,
log-cosh, percentage and logarithmic errors, the hinges, and cosine similarity."""

from companion.keras.losses import _elementwise
from companion.keras.losses._binary_crossentropy import binary_crossentropy
from companion.keras.losses._categorical_crossentropy import categorical_crossentropy
from companion.keras.losses._sparse_categorical_crossentropy import sparse_categorical_crossentropy
from companion.keras.metrics._mean_metric_wrapper import MeanMetricWrapper


def cosine_similarity(y_true, y_pred, axis=-1):
    """Per-example cosine similarity of labels and predictions along ``axis`` (1: same direction).

    Example:
        >>> import companion as tf
        >>> print(tf.keras.metrics.cosine_similarity([[1.0, 0.0]], [[2.0, 0.0]]))
        companion.Tensor([1.], shape=(1,), dtype=float32)
    """
    return -_elementwise.cosine_similarity(y_true, y_pred, axis=axis)


def _wrapper(class_name, function, default_name, summary):
    def __init__(self, name=default_name, dtype=None):
        MeanMetricWrapper.__init__(self, function, name=name, dtype=dtype)

    return type(class_name, (MeanMetricWrapper,), {
        "__init__": __init__, "__module__": __name__,
        "__doc__": f"The running mean of {summary}, TF's ``tf.keras.metrics.{class_name}``."})


KLDivergence = _wrapper("KLDivergence", _elementwise.kl_divergence, "kl_divergence",
                        "the Kullback-Leibler divergence")
Poisson = _wrapper("Poisson", _elementwise.poisson, "poisson", "the Poisson loss")
LogCoshError = _wrapper("LogCoshError", _elementwise.log_cosh, "logcosh", "the log-cosh error")
MeanAbsolutePercentageError = _wrapper(
    "MeanAbsolutePercentageError", _elementwise.mean_absolute_percentage_error,
    "mean_absolute_percentage_error", "the mean absolute percentage error")
MeanSquaredLogarithmicError = _wrapper(
    "MeanSquaredLogarithmicError", _elementwise.mean_squared_logarithmic_error,
    "mean_squared_logarithmic_error", "the mean squared logarithmic error")
Hinge = _wrapper("Hinge", _elementwise.hinge, "hinge", "the hinge loss")
SquaredHinge = _wrapper("SquaredHinge", _elementwise.squared_hinge, "squared_hinge", "the squared hinge loss")
CategoricalHinge = _wrapper("CategoricalHinge", _elementwise.categorical_hinge, "categorical_hinge",
                            "the categorical hinge loss")


class CosineSimilarity(MeanMetricWrapper):
    """The running mean of the cosine similarity along ``axis``, TF's ``tf.keras.metrics.CosineSimilarity``
    (positive, unlike the loss of that name).

    Example:
        >>> import companion as tf
        >>> print(tf.keras.metrics.CosineSimilarity()([[1.0, 0.0]], [[1.0, 1.0]]))
        companion.Tensor(0.70710677, shape=(), dtype=float32)
    """

    _direction = "up"  # larger values are better (what callbacks' mode="auto" reads)

    def __init__(self, name="cosine_similarity", dtype=None, axis=-1):
        super().__init__(cosine_similarity, name=name, dtype=dtype, axis=axis)

    def get_config(self):
        return {"name": self.name, "dtype": self.dtype}  # Keras 3.15's leaves ``axis`` out


class BinaryCrossentropy(MeanMetricWrapper):
    """The running mean of ``binary_crossentropy``, TF's ``tf.keras.metrics.BinaryCrossentropy``.

    Example:
        >>> import companion as tf
        >>> print(tf.keras.metrics.BinaryCrossentropy()([[1.0], [0.0]], [[0.9], [0.2]]))
        companion.Tensor(0.16425204, shape=(), dtype=float32)
    """

    def __init__(self, name="binary_crossentropy", dtype=None, from_logits=False, label_smoothing=0):
        super().__init__(binary_crossentropy, name=name, dtype=dtype, from_logits=from_logits,
                         label_smoothing=label_smoothing)


class CategoricalCrossentropy(MeanMetricWrapper):
    """The running mean of ``categorical_crossentropy``, TF's ``tf.keras.metrics.CategoricalCrossentropy``.

    Example:
        >>> import companion as tf
        >>> print(tf.keras.metrics.CategoricalCrossentropy()([[0.0, 1.0]], [[0.2, 0.8]]))
        companion.Tensor(0.22314353, shape=(), dtype=float32)
    """

    def __init__(self, name="categorical_crossentropy", dtype=None, from_logits=False,
                 label_smoothing=0, axis=-1):
        super().__init__(categorical_crossentropy, name=name, dtype=dtype, from_logits=from_logits,
                         label_smoothing=label_smoothing, axis=axis)


class SparseCategoricalCrossentropy(MeanMetricWrapper):
    """The running mean of ``sparse_categorical_crossentropy``, TF's
    ``tf.keras.metrics.SparseCategoricalCrossentropy``.

    Example:
        >>> import companion as tf
        >>> print(tf.keras.metrics.SparseCategoricalCrossentropy()([1], [[0.2, 0.8]]))
        companion.Tensor(0.22314355, shape=(), dtype=float32)
    """

    def __init__(self, name="sparse_categorical_crossentropy", dtype=None, from_logits=False,
                 ignore_class=None, axis=-1):
        super().__init__(sparse_categorical_crossentropy, name=name, dtype=dtype, from_logits=from_logits,
                         ignore_class=ignore_class, axis=axis)
