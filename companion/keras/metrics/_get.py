"""`get`, `serialize`, `deserialize`: metrics by name, as ``compile(metrics=['accuracy'])`` needs."""

import re

from companion.keras import _registry
from companion.keras.losses._mean_absolute_error import mean_absolute_error
from companion.keras.losses._mean_squared_error import mean_squared_error
from companion.keras.metrics import (
    _accuracy,
    _auc,
    _confusion_metrics,
    _correlation,
    _f_score,
    _iou,
    _precision_recall,
    _probabilistic,
    _r2_score,
    _reduce,
    _regression,
    _top_k,
)
from companion.keras.metrics._metric import Metric

_FUNCTIONS = {
    "accuracy": _accuracy.accuracy, "acc": _accuracy.accuracy,
    "binary_accuracy": _accuracy.binary_accuracy,
    "categorical_accuracy": _accuracy.categorical_accuracy,
    "sparse_categorical_accuracy": _accuracy.sparse_categorical_accuracy,
    "mean_squared_error": mean_squared_error, "mse": mean_squared_error, "MSE": mean_squared_error,
    "mean_absolute_error": mean_absolute_error, "mae": mean_absolute_error, "MAE": mean_absolute_error,
    "top_k_categorical_accuracy": _top_k.top_k_categorical_accuracy,
    "sparse_top_k_categorical_accuracy": _top_k.sparse_top_k_categorical_accuracy,
    "cosine_similarity": _probabilistic.cosine_similarity,
}
_CLASSES = {cls.__name__: cls for cls in (
    _reduce.Mean, _reduce.Sum, _accuracy.Accuracy, _accuracy.BinaryAccuracy,
    _accuracy.CategoricalAccuracy, _accuracy.SparseCategoricalAccuracy, _regression.MeanSquaredError,
    _regression.MeanAbsoluteError, _regression.RootMeanSquaredError, _precision_recall.Precision,
    _precision_recall.Recall, _auc.AUC, _top_k.TopKCategoricalAccuracy,
    _top_k.SparseTopKCategoricalAccuracy, _confusion_metrics.TruePositives,
    _confusion_metrics.FalsePositives, _confusion_metrics.TrueNegatives,
    _confusion_metrics.FalseNegatives, _iou.MeanIoU, _iou.IoU, _iou.BinaryIoU, _iou.OneHotIoU,
    _iou.OneHotMeanIoU,
    _f_score.FBetaScore, _f_score.F1Score, _r2_score.R2Score, _correlation.PearsonCorrelation,
    _correlation.ConcordanceCorrelation,
    *(getattr(_probabilistic, name) for name in (
        "BinaryCrossentropy", "CategoricalCrossentropy", "SparseCategoricalCrossentropy",
        "KLDivergence", "Poisson", "LogCoshError", "MeanAbsolutePercentageError",
        "MeanSquaredLogarithmicError", "Hinge", "SquaredHinge", "CategoricalHinge",
        "CosineSimilarity")))}


def _snake_case(name):
    """Keras's snake-case name of a class name: ``KLDivergence`` -> ``kl_divergence``."""
    name = re.sub(r"(.)([A-Z][a-z]+)", r"\1_\2", name)
    return re.sub(r"([a-z])([A-Z])", r"\1_\2", name).lower()


# Keras 3 also knows each metric class by its snake-case name ('binary_crossentropy', 'auc',
# 'kl_divergence', with the aliases 'mape'/'msle'): a new instance; the function names above win
_BY_SNAKE_CASE = {_snake_case(name): cls for name, cls in _CLASSES.items()
                  if _snake_case(name) not in _FUNCTIONS}
_BY_SNAKE_CASE.update({alias: _BY_SNAKE_CASE[full] for alias, full in (
    ("mape", "mean_absolute_percentage_error"), ("MAPE", "mean_absolute_percentage_error"),
    ("msle", "mean_squared_logarithmic_error"), ("MSLE", "mean_squared_logarithmic_error"))})


def get(identifier):
    """A metric from a name (``'accuracy'``, ``'Mean'``), a config dict, or a callable.

    A function name gives the per-example function, a class name a new instance; ``None``
    gives ``None`` and a callable is returned unchanged.

    Example:
        >>> import companion as tf
        >>> tf.keras.metrics.get("accuracy").__name__
        'accuracy'
    """
    return _registry.get(identifier, deserialize, "metric", "a metric name, " + _HINT)


def deserialize(name, custom_objects=None):
    """The metric named by ``name`` (a string, or a ``{'class_name', 'config'}`` dict)."""
    return _registry.function_or_instance(name, _FUNCTIONS, {**_BY_SNAKE_CASE, **_CLASSES}, Metric, "metric",
                                          _HINT, custom_objects)


def serialize(metric):
    """``{'class_name', 'config'}`` for a `Metric`, the name for a known metric function."""
    return _registry.serialize(metric, Metric, lambda f: getattr(f, "__name__", f), "keras.metrics")


_HINT = "a Metric instance, or a function (y_true, y_pred) -> values"
