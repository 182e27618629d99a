"""`get`, `serialize`, `deserialize`: constraints by name, as ``Dense(kernel_constraint='non_neg')``
needs."""

import inspect

from companion.keras import _registry
from companion.keras.constraints._constraints import Constraint, MaxNorm, MinMaxNorm, NonNeg, UnitNorm

_CLASSES = {cls.__name__: cls for cls in (Constraint, MaxNorm, MinMaxNorm, NonNeg, UnitNorm)}
_CLASSES.update({"constraint": Constraint, "max_norm": MaxNorm, "min_max_norm": MinMaxNorm,
                 "non_neg": NonNeg, "unit_norm": UnitNorm})


def get(identifier):
    """A constraint from a name (``'non_neg'``), a config dict, a class, a callable, or ``None``.

    Example:
        >>> import companion as tf
        >>> type(tf.keras.constraints.get("max_norm")).__name__
        'MaxNorm'
    """
    if inspect.isclass(identifier) and issubclass(identifier, Constraint):
        return identifier()
    return _registry.get(identifier, deserialize, "constraint",
                         "'max_norm', 'min_max_norm', 'non_neg', 'unit_norm', a Constraint, or a "
                         "callable weight -> projected weight")


def deserialize(config, custom_objects=None):
    """The constraint named by a string or described by ``{'class_name', 'config'}``."""
    cls, kwargs = _registry.class_and_config(config, _CLASSES, "constraint", custom_objects)
    return cls(**kwargs)


def serialize(constraint):
    """``{'class_name', 'config'}`` for a `Constraint` (None for None)."""
    return _registry.serialize(constraint, Constraint, lambda other: other, "keras.constraints")
