"""`get`, `serialize`, `deserialize`: losses by name, as ``compile(loss='mse')`` needs."""

from companion.keras import _registry
from companion.keras.losses import _binary_crossentropy as _bce
from companion.keras.losses import _categorical_crossentropy as _cce
from companion.keras.losses import _circle, _ctc, _huber
from companion.keras.losses import _elementwise as _more
from companion.keras.losses import _focal_and_overlap as _focal
from companion.keras.losses import _mean_absolute_error as _mae
from companion.keras.losses import _mean_squared_error as _mse
from companion.keras.losses import _sparse_categorical_crossentropy as _scce
from companion.keras.losses._loss import Loss

_FUNCTIONS = {
    "mean_squared_error": _mse.mean_squared_error, "mse": _mse.mean_squared_error,
    "MSE": _mse.mean_squared_error,
    "mean_absolute_error": _mae.mean_absolute_error, "mae": _mae.mean_absolute_error,
    "MAE": _mae.mean_absolute_error,
    "huber": _huber.huber, "huber_loss": _huber.huber,
    "binary_crossentropy": _bce.binary_crossentropy,
    "categorical_crossentropy": _cce.categorical_crossentropy,
    "sparse_categorical_crossentropy": _scce.sparse_categorical_crossentropy,
    **{name: getattr(_more, name) for name in (
        "mean_absolute_percentage_error", "mape", "MAPE", "mean_squared_logarithmic_error", "msle",
        "MSLE", "log_cosh", "logcosh", "poisson", "kl_divergence", "kld", "KLD",
        "kullback_leibler_divergence", "hinge", "squared_hinge", "categorical_hinge",
        "cosine_similarity")},
    "circle": _circle.circle, "ctc": _ctc.ctc,
    **{name: getattr(_focal, name) for name in (
        "binary_focal_crossentropy", "categorical_focal_crossentropy", "dice", "tversky")},
}
KNOWN_FUNCTIONS = tuple({id(fn): fn for fn in _FUNCTIONS.values()}.values())
_CLASSES = {cls.__name__: cls for cls in (
    _mse.MeanSquaredError, _mae.MeanAbsoluteError, _huber.Huber, _bce.BinaryCrossentropy,
    _cce.CategoricalCrossentropy, _scce.SparseCategoricalCrossentropy, _more.MeanAbsolutePercentageError,
    _more.MeanSquaredLogarithmicError, _more.LogCosh, _more.Poisson, _more.KLDivergence, _more.Hinge,
    _more.SquaredHinge, _more.CategoricalHinge, _more.CosineSimilarity, _focal.BinaryFocalCrossentropy,
    _focal.CategoricalFocalCrossentropy, _focal.Dice, _focal.Tversky, _circle.Circle, _ctc.CTC)}


def get(identifier):
    """A loss from a name (``'mse'``, ``'MeanSquaredError'``), a config dict, or a callable.

    A function name gives the per-example function, a class name a new instance; ``None``
    gives ``None`` and a callable is returned unchanged.

    Example:
        >>> import companion as tf
        >>> tf.keras.losses.get("mse").__name__
        'mean_squared_error'
    """
    return _registry.get(identifier, deserialize, "loss", "a loss name, " + _HINT)


def deserialize(name, custom_objects=None):
    """The loss named by ``name`` (a string, or a ``{'class_name', 'config'}`` dict)."""
    return _registry.function_or_instance(name, _FUNCTIONS, _CLASSES, Loss, "loss", _HINT,
                                          custom_objects)


def serialize(loss):
    """``{'class_name', 'config'}`` for a `Loss`, the name for a known loss function."""
    return _registry.serialize(loss, Loss, lambda f: getattr(f, "__name__", f), "keras.losses")


_HINT = "a Loss instance, or a function (y_true, y_pred) -> per-example losses"
