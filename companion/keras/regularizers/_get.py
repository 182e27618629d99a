"""`get`, `serialize`, `deserialize`: regularizers by name, as ``Dense(kernel_regularizer='l2')`` needs."""

from companion.keras import _registry
from companion.keras.regularizers._orthogonal import OrthogonalRegularizer
from companion.keras.regularizers._regularizers import L1, L1L2, L2

_CLASSES = {"L1": L1, "L2": L2, "L1L2": L1L2, "l1": L1, "l2": L2, "l1_l2": L1L2,
            "OrthogonalRegularizer": OrthogonalRegularizer, "orthogonal_regularizer": OrthogonalRegularizer}


def get(identifier):
    """A regularizer from a name (``'l2'``), a config dict, a callable, or ``None``.

    Example:
        >>> import companion as tf
        >>> tf.keras.regularizers.get("l2").l2
        0.01
    """
    return _registry.get(identifier, deserialize, "regularizer",
                         "'l1', 'l2', 'l1_l2', a Regularizer, or a callable weight -> scalar penalty")


def deserialize(config, custom_objects=None):
    """The regularizer named by a string or described by ``{'class_name', 'config'}``."""
    cls, kwargs = _registry.class_and_config(config, _CLASSES, "regularizer", custom_objects)
    name = config if isinstance(config, str) else config.get("class_name")
    if name == "l1_l2" and not kwargs:
        kwargs = {"l1": 0.01, "l2": 0.01}
    return cls(**kwargs)


def serialize(regularizer):
    """``{'class_name', 'config'}`` for a known regularizer."""
    return _registry.serialize(regularizer, (L1L2, OrthogonalRegularizer), lambda other: other,
                               "keras.regularizers")
