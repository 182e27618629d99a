"""`get`, `serialize`, `deserialize`: metrics by name, as ``compile(metrics=['accuracy'])`` needs."""

from companion.keras.losses._mean_absolute_error import mean_absolute_error
from companion.keras.losses._mean_squared_error import mean_squared_error
from companion.keras.metrics import _accuracy, _auc, _precision_recall, _reduce, _regression
from companion.keras.metrics._metric import Metric

_FUNCTIONS = {
    "accuracy": _accuracy.accuracy, "acc": _accuracy.accuracy,
    "binary_accuracy": _accuracy.binary_accuracy,
    "categorical_accuracy": _accuracy.categorical_accuracy,
    "sparse_categorical_accuracy": _accuracy.sparse_categorical_accuracy,
    "mean_squared_error": mean_squared_error, "mse": mean_squared_error, "MSE": mean_squared_error,
    "mean_absolute_error": mean_absolute_error, "mae": mean_absolute_error, "MAE": mean_absolute_error,
}
_CLASSES = {cls.__name__: cls for cls in (
    _reduce.Mean, _reduce.Sum, _accuracy.Accuracy, _accuracy.BinaryAccuracy,
    _accuracy.CategoricalAccuracy, _accuracy.SparseCategoricalAccuracy, _regression.MeanSquaredError,
    _regression.MeanAbsoluteError, _regression.RootMeanSquaredError, _precision_recall.Precision,
    _precision_recall.Recall, _auc.AUC)}


def get(identifier):
    """A metric from a name (``'accuracy'``, ``'Mean'``), a config dict, or a callable.

    A function name gives the per-example function, a class name a new instance; a
    callable (a function or a `Metric`) is returned unchanged.

    Example:
        >>> import companion as tf
        >>> tf.keras.metrics.get("accuracy").__name__
        'accuracy'
    """
    if identifier is None or callable(identifier):
        return identifier
    if isinstance(identifier, (str, dict)):
        return deserialize(identifier)
    raise ValueError(f"Could not interpret metric identifier: {identifier!r}. Pass a metric name such as "
                     "'accuracy', a Metric instance, or a function (y_true, y_pred) -> values.")


def deserialize(name, custom_objects=None):
    """The metric named by ``name`` (a string, or a ``{'class_name', 'config'}`` dict)."""
    known = {**_FUNCTIONS, **_CLASSES, **(custom_objects or {})}
    if isinstance(name, dict):
        cls = known.get(name.get("class_name"))
        if not (isinstance(cls, type) and issubclass(cls, Metric)):
            raise ValueError(f"Unknown metric class {name.get('class_name')!r}. Known: {sorted(_CLASSES)}.")
        return cls.from_config(name.get("config", {}))
    if name not in known:
        raise ValueError(f"Unknown metric function: {name!r}. Expected one of {sorted(known)}, a Metric "
                         "instance, or a function (y_true, y_pred) -> values.")
    found = known[name]
    return found() if isinstance(found, type) else found


def serialize(metric):
    """``{'class_name', 'config'}`` for a `Metric`, the name for a known metric function."""
    if isinstance(metric, Metric):
        return {"class_name": type(metric).__name__, "config": metric.get_config()}
    return getattr(metric, "__name__", metric)
