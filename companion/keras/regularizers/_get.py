"""`get`, `serialize`, `deserialize`: regularizers by name, as ``Dense(kernel_regularizer='l2')`` needs."""

from companion.keras.regularizers._regularizers import L1, L1L2, L2

_CLASSES = {"L1": L1, "L2": L2, "L1L2": L1L2, "l1": L1, "l2": L2, "l1_l2": L1L2}


def get(identifier):
    """A regularizer from a name (``'l2'``), a config dict, a callable, or ``None``.

    Example:
        >>> import companion as tf
        >>> tf.keras.regularizers.get("l2").l2
        0.01
    """
    if identifier is None:
        return None
    if isinstance(identifier, (str, dict)):
        return deserialize(identifier)
    if callable(identifier):
        return identifier
    raise ValueError(f"Could not interpret regularizer identifier: {identifier!r}. Pass 'l1', 'l2', "
                     "'l1_l2', a Regularizer, or a callable weight -> scalar penalty.")


def deserialize(config, custom_objects=None):
    """The regularizer named by a string or described by ``{'class_name', 'config'}``."""
    known = {**_CLASSES, **(custom_objects or {})}
    name, kwargs = (config, {}) if isinstance(config, str) else (
        config.get("class_name"), config.get("config", {}))
    if name not in known:
        raise ValueError(f"Unknown regularizer: {name!r}. Expected one of {sorted(known)}.")
    if name == "l1_l2" and not kwargs:
        kwargs = {"l1": 0.01, "l2": 0.01}
    return known[name](**kwargs)


def serialize(regularizer):
    """``{'class_name', 'config'}`` for a known regularizer."""
    if isinstance(regularizer, L1L2):
        return {"class_name": type(regularizer).__name__, "config": regularizer.get_config()}
    return regularizer
