"""Keras objects by name or config: the shared body of every ``get``/``serialize``/``deserialize``."""


def get(identifier, deserialize, kind, hint, none=None):
    """``None`` gives ``none``; a name or config dict is deserialized; a callable passes through.

    Raises:
        ValueError: ``identifier`` is none of those; ``hint`` says what to pass instead.
    """
    if identifier is None:
        return none
    if isinstance(identifier, str):
        return by_name(deserialize, identifier, kind)
    if isinstance(identifier, dict):
        return deserialize(identifier)
    if callable(identifier):
        return identifier
    raise ValueError(f"Could not interpret {kind} identifier: {identifier!r}\nPass {hint}.")


def by_name(deserialize, name, kind):
    """``deserialize(name)``; an unknown name raises Keras's "Could not interpret {kind} identifier"
    ValueError (Keras 3's line), then on the next line the names companion knows."""
    try:
        return deserialize(name)
    except ValueError as error:
        raise ValueError(f"Could not interpret {kind} identifier: {name}\n{error}") from None


def serialize(obj, base, otherwise, module):
    """`keras.saving.serialize_keras_object` of an instance of ``base`` (Keras 3's ``{'module',
    'class_name', 'config', 'registered_name'}``), else ``otherwise(obj)``.

    A companion class is named by its public module (``'keras.layers'``; ``module`` for one
    companion does not export) and has no registered name. A class of your own keeps its
    Python module (None for ``__main__``) and its registered name (``'package>Name'``, or the
    class name when it is not registered).
    """
    # deferred: companion.keras.saving imports this module at its top (_keras_file, layers, _serialization)
    from companion.keras.saving._serialization import serialize as serialize_object

    if not isinstance(obj, base):
        return otherwise(obj)
    return serialize_object(obj, module)


def class_and_config(config, classes, kind, custom_objects=None, aliases=None):
    """The class named by a string or a ``{'class_name', 'config'}`` dict, and its keyword arguments."""
    known = {**classes, **_custom(custom_objects)}
    aliases = aliases or {}
    name, kwargs = (config, {}) if isinstance(config, str) else (
        config.get("class_name"), config.get("config", {}))
    registered = None if isinstance(config, str) else config.get("registered_name")
    cls = known.get(registered) or known.get(aliases.get(name, name))
    if cls is None and isinstance(config, dict):
        raise TypeError(f"Could not locate class {name!r}. Make sure custom classes and functions are "
                        "decorated with `@keras.saving.register_keras_serializable()`. If they are already "
                        "decorated, make sure they are all imported so that the decorator is run before "
                        f"trying to load them. Full object config: {config}. Known {kind} classes: "
                        f"{sorted(known)}; pass your own in custom_objects={{'Name': Name}}.")
    if cls is None:
        raise ValueError(f"Unknown {kind}: {name!r}. Expected one of {sorted({*aliases, *known})}.")
    return cls, dict(kwargs)


def function_or_instance(name, functions, classes, base, kind, hint, custom_objects=None):
    """A function by name, a new instance by class name, or an instance from a config dict."""
    known = {**functions, **classes, **_custom(custom_objects)}
    if isinstance(name, dict):
        cls = known.get(name.get("registered_name")) or known.get(name.get("class_name"))
        if not (isinstance(cls, type) and issubclass(cls, base)):
            raise ValueError(f"Unknown {kind} class {name.get('class_name')!r}. Known: {sorted(classes)}.")
        return cls.from_config(name.get("config", {}))
    if name not in known:
        raise ValueError(f"Unknown {kind} function: {name!r}. Expected one of {sorted(known)}, {hint}.")
    found = known[name]
    return found() if isinstance(found, type) else found


def _custom(custom_objects):
    """Registered objects, those of active ``custom_object_scope`` blocks, then ``custom_objects``."""
    # deferred: companion.keras.saving imports this module at its top (_keras_file, layers, _serialization)
    from companion.keras.saving._object_registry import custom_objects as everything

    return everything(custom_objects)
