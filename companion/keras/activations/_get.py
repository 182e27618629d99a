"""`get`, `serialize`, `deserialize`: activations by name, as ``Dense(activation='relu')`` needs."""

from companion.keras import _registry
from companion.keras.activations import _activations as _a
from companion.keras.activations import _more_activations as _more

_BY_NAME = {fn.__name__: fn for fn in (
    _a.relu, _a.sigmoid, _a.tanh, _a.softmax, _a.elu, _a.selu, _a.softplus, _a.swish, _a.gelu,
    _a.leaky_relu, _a.linear, *_more.ALL)}
_BY_NAME["silu"] = _a.swish
_BY_NAME["hard_swish"] = _more.hard_silu


def get(identifier):
    """The activation function for a name (``'relu'``), ``None`` (linear) or a callable.

    Example:
        >>> import companion as tf
        >>> tf.keras.activations.get("relu").__name__
        'relu'
    """
    if identifier is None:
        return _a.linear
    if isinstance(identifier, dict):
        identifier = identifier.get("config", identifier.get("class_name"))
    if isinstance(identifier, str):
        return _registry.by_name(deserialize, identifier, "activation function")
    if callable(identifier):
        return identifier
    raise ValueError(f"Could not interpret activation function identifier: {identifier!r}. Pass a "
                     f"name such as 'relu' (one of {sorted(_BY_NAME)}), a callable, or None.")


def deserialize(name, custom_objects=None):
    """The activation function called ``name``."""
    known = {**_BY_NAME, **(custom_objects or {})}
    if isinstance(name, dict):  # Keras's {"class_name": "function", "config": "relu"} form
        name = name.get("config", name.get("class_name"))
    if not isinstance(name, str) or name not in known:
        raise ValueError(f"Unknown activation function: {name!r}. Expected one of {sorted(known)}.")
    return known[name]


def serialize(activation):
    """The name of a known activation function (what `get_config` stores)."""
    name = getattr(activation, "__name__", None)
    if _BY_NAME.get(name) is activation:
        return name
    return activation
