"""Custom Keras objects by name: `register_keras_serializable`, `custom_object_scope` and lookups."""

import threading

_REGISTERED = {}  # "package>name" -> class or function
_NAMES = {}  # class or function -> "package>name"
_SCOPES = threading.local()


def register_keras_serializable(package="Custom", name=None):
    """A decorator that makes a class or function loadable by name, Keras's registration.

    The object is stored as ``'{package}>{name}'`` (``name`` defaults to its ``__name__``),
    which is what `Model.save` writes as its ``registered_name`` and what
    `keras.models.load_model` looks up, so no ``custom_objects`` are needed.

    Registering another object under a name already taken replaces it, as in Keras.

    Raises:
        ValueError: the decorated class has no ``get_config`` method.

    Example:
        >>> import companion as tf
        >>> @tf.keras.saving.register_keras_serializable(package="demo")
        ... class Doubling(tf.keras.layers.Layer):
        ...     def call(self, x):
        ...         return 2 * x
        >>> tf.keras.saving.get_registered_name(Doubling)
        'demo>Doubling'
    """

    def decorate(obj):
        if isinstance(obj, type) and not hasattr(obj, "get_config"):
            raise ValueError("Cannot register a class that does not have a get_config() method.")
        key = f"{package}>{name if name is not None else obj.__name__}"
        _REGISTERED[key], _NAMES[obj] = obj, key
        return obj

    return decorate


def get_registered_name(obj):
    """The name ``obj`` is registered under, else its ``__name__``."""
    return _NAMES.get(obj, getattr(obj, "__name__", None))


def get_registered_object(name, custom_objects=None, module_objects=None):
    """The object called ``name`` in the innermost `custom_object_scope`, the registry,
    ``custom_objects`` or ``module_objects`` (searched in that order, as Keras does); else None."""
    scopes = _scopes()
    for table in (scopes[-1] if scopes else {}, _REGISTERED, custom_objects or {}, module_objects or {}):
        if name in table:
            return table[name]
    return None


def get_custom_objects():
    """The global registry, a dict of ``'package>name'`` to object (mutable, as in Keras)."""
    return _REGISTERED


def custom_objects(extra=None):
    """Everything a name may resolve to: the registry, the active scopes, then ``extra``."""
    found = dict(_REGISTERED)
    for scope in _scopes():
        found.update(scope)
    found.update(extra or {})
    return found


class CustomObjectScope:
    """A ``with`` block inside which names in ``custom_objects`` resolve while loading.

    Example:
        >>> import companion as tf
        >>> def twice(x):
        ...     return 2 * x
        >>> with tf.keras.saving.custom_object_scope({"twice": twice}):
        ...     tf.keras.saving.get_registered_object("twice") is twice
        True
    """

    def __init__(self, custom_objects):
        self.custom_objects = dict(custom_objects or {})

    def __enter__(self):
        _scopes().append(self.custom_objects)
        return self

    def __exit__(self, *exc):
        _scopes().pop()


custom_object_scope = CustomObjectScope


def _scopes():
    if not hasattr(_SCOPES, "stack"):
        _SCOPES.stack = []
    return _SCOPES.stack
