"""`get`, `serialize`, `deserialize`: initializers by name, as ``Dense(kernel_initializer=...)`` needs."""

from companion.keras import _registry
from companion.keras.initializers import _identity, _orthogonal
from companion.keras.initializers import _initializer as _i
from companion.keras.initializers import _variance_scaling as _vs

_CLASSES = {cls.__name__: cls for cls in (
    _i.Zeros, _i.Ones, _i.Constant, _i.RandomNormal, _i.RandomUniform, _i.TruncatedNormal,
    _vs.VarianceScaling, _vs.GlorotUniform, _vs.GlorotNormal, _vs.HeNormal, _vs.HeUniform,
    _vs.LecunNormal, _vs.LecunUniform, _identity.Identity, _orthogonal.Orthogonal)}
_ALIASES = {
    "zeros": "Zeros", "ones": "Ones", "constant": "Constant", "random_normal": "RandomNormal",
    "uniform": "RandomUniform", "normal": "RandomNormal",
    "random_uniform": "RandomUniform", "truncated_normal": "TruncatedNormal",
    "variance_scaling": "VarianceScaling", "glorot_uniform": "GlorotUniform",
    "glorot_normal": "GlorotNormal", "he_normal": "HeNormal", "he_uniform": "HeUniform",
    "identity": "Identity", "orthogonal": "Orthogonal", "lecun_normal": "LecunNormal",
    "lecun_uniform": "LecunUniform", "IdentityInitializer": "Identity", "OrthogonalInitializer": "Orthogonal",
}


def get(identifier):
    """An initializer from a name (``'glorot_uniform'``, ``'Zeros'``), a config dict or a callable.

    Example:
        >>> import companion as tf
        >>> type(tf.keras.initializers.get("he_normal")).__name__
        'HeNormal'
    """
    return _registry.get(identifier, deserialize, "initializer", "a name such as 'glorot_uniform', "
                         "an Initializer, or a callable (shape, dtype) -> tensor")


def deserialize(config, custom_objects=None):
    """The initializer named by a string or described by ``{'class_name', 'config'}``."""
    cls, kwargs = _registry.class_and_config(config, _CLASSES, "initializer", custom_objects, _ALIASES)
    return cls.from_config(kwargs) if hasattr(cls, "from_config") else cls(**kwargs)


def serialize(initializer):
    """``{'class_name', 'config'}`` for an `Initializer` (what layers' `get_config` stores)."""
    return _registry.serialize(initializer, _i.Initializer, lambda other: other, "keras.initializers")
