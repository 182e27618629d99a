"""`serialize_keras_object` and `deserialize_keras_object`: any Keras object as JSON-ready data and back.

An object becomes Keras 3's ``{'module', 'class_name', 'config', 'registered_name'}`` dict
(plus ``build_config``/``compile_config`` when it has them); its config is serialized
recursively. Built-in classes are named by their public module (``'keras.layers'``) and have
no registered name; classes of your own keep their Python module (None for ``__main__``)
and their registered name (``'package>Name'``, else the class name). Functions are
``{'module': 'builtins', 'class_name': 'function', 'config': name}``. Python values,
lists, tuples and dicts stay as they are; bytes, slices, ``...``, NumPy arrays, tensors and
lambdas get the special ``'__bytes__'``, ``'__numpy__'``, ``'__tensor__'``, ``'__lambda__'``
(...) dicts Keras writes.
"""

import base64
import builtins
import importlib
import inspect
import marshal
import types
import warnings

import numpy as np

from companion._core import _dtypes
from companion._core._convert import is_tensor
from companion._core._shape import TensorShape
from companion.keras.saving import _object_registry as _objects
from companion.keras.saving import _public_names
from companion.keras.saving._safe_mode import SafeModeScope, in_safe_mode

_PLAIN = (str, int, float, bool)
_NOT_SPECIAL = object()
_SPECIAL = ("__tensor__", "__numpy__", "__bytes__", "__ellipsis__", "__slice__", "__lambda__")


def serialize_keras_object(obj):
    """The JSON-ready config of ``obj`` (Keras 3's format), which `deserialize_keras_object` revives.

    Raises:
        TypeError: ``obj`` (or a value in its config) is not serializable: it has no
            ``get_config`` (a set, an arbitrary object), or ``get_config`` does not return a dict.

    Example:
        >>> import companion as tf
        >>> tf.keras.saving.serialize_keras_object(tf.keras.initializers.Zeros())
        {'module': 'keras.initializers', 'class_name': 'Zeros', 'config': {}, 'registered_name': None}
        >>> tf.keras.saving.serialize_keras_object(tf.keras.activations.relu)["config"]
        'relu'
    """
    return serialize(obj)


def serialize(obj, module=None):
    """`serialize_keras_object`; ``module`` names a companion class that companion does not export
    (the public module of its kind, e.g. ``'keras.losses'``)."""
    if obj is None or isinstance(obj, _PLAIN):
        return obj
    if isinstance(obj, (list, tuple)):
        items = [serialize(item) for item in obj]
        return tuple(items) if isinstance(obj, tuple) else items
    if isinstance(obj, dict):
        return serialize_dict(obj)
    special = _special(obj)
    if special is not _NOT_SPECIAL:
        return special
    config = _identity(obj, _inner_config(obj), module)
    if hasattr(obj, "get_build_config"):
        build_config = obj.get_build_config()
        if build_config is not None:
            config["build_config"] = serialize_dict(build_config)
    if hasattr(obj, "get_compile_config"):
        compile_config = obj.get_compile_config()
        if compile_config is not None:
            config["compile_config"] = serialize_dict(compile_config)
    return config


def serialize_dict(config):
    """``config`` with each value serialized."""
    return {key: serialize(value) for key, value in config.items()}


def _special(obj):
    """The ``'__name__'`` dict (or plain value) of the values Keras writes in a form of their own, else
    ``_NOT_SPECIAL``."""
    if isinstance(obj, bytes):
        return {"class_name": "__bytes__", "config": {"value": obj.decode("utf-8")}}
    if isinstance(obj, slice):
        return {"class_name": "__slice__", "config": {
            "start": serialize(obj.start), "stop": serialize(obj.stop), "step": serialize(obj.step)}}
    if obj is Ellipsis:
        return {"class_name": "__ellipsis__", "config": {}}
    if isinstance(obj, TensorShape):
        return obj.as_list() if obj.rank is not None else None
    if is_tensor(obj):
        value = np.asarray(obj.numpy())
        return {"class_name": "__tensor__", "config": {"value": value.tolist(), "dtype": value.dtype.name}}
    if type(obj).__module__ == "numpy":
        if isinstance(obj, np.ndarray) and obj.ndim > 0:
            return {"class_name": "__numpy__", "config": {"value": obj.tolist(), "dtype": obj.dtype.name}}
        if isinstance(obj, (np.ndarray, np.generic)):
            return obj.item()  # a NumPy scalar is its Python value
        return _NOT_SPECIAL
    if isinstance(obj, _dtypes.DType):
        return obj.name
    if isinstance(obj, types.FunctionType) and obj.__name__ == "<lambda>":
        warnings.warn("The object being serialized includes a `lambda`. This is unsafe. In order to reload "
                      "the object, you will have to pass `safe_mode=False` to the loading function. Please "
                      "avoid using `lambda` in the future, and use named Python functions instead. This is "
                      f"the `lambda` being serialized: {_source(obj)}", stacklevel=4)
        return {"class_name": "__lambda__", "config": {"value": _dump_function(obj)}}
    return _NOT_SPECIAL


def _source(fn):
    try:
        return inspect.getsource(fn)
    except (OSError, TypeError):  # defined where no source file is (an interactive prompt)
        return repr(fn)


def _inner_config(obj):
    if isinstance(obj, types.FunctionType):
        return _objects.get_registered_name(obj)
    if hasattr(obj, "get_config"):
        config = obj.get_config()
        if not isinstance(config, dict):
            raise TypeError(f"The `get_config()` method of {obj} should return a dict. It returned: {config}")
        return serialize_dict(config)
    if hasattr(obj, "__name__"):
        return _objects.get_registered_name(obj)
    raise TypeError(f"Cannot serialize object {obj} of type {type(obj)}. To be serializable, a class must "
                    "implement the `get_config()` method.")


def _identity(obj, inner, module):
    """``module``, ``class_name``, ``registered_name`` around ``inner``: a built-in class by its public
    name, anything else (functions included: class ``function``) by its module and registered name."""
    cls = type(obj)
    public = _public_names.public_module(cls)
    if public is None and module is not None and cls.__module__.split(".")[0] == "companion":
        public = module
    if public is not None:
        config = {"module": public, "class_name": cls.__name__, "config": inner, "registered_name": None}
        identity = getattr(obj, "_keras_identity", None)
        if identity is not None:  # a companion model: Model(inputs, outputs) is Keras's Functional
            config.update(identity())
        return config
    return {"module": None if cls.__module__ == "__main__" else cls.__module__, "class_name": cls.__name__,
            "config": inner, "registered_name": _objects.get_registered_name(cls)}


def deserialize_keras_object(config, custom_objects=None, safe_mode=True):
    """The object `serialize_keras_object` described by ``config``.

    Classes and functions of your own are found by their registered name
    (`register_keras_serializable`), in an active `custom_object_scope`, or in
    ``custom_objects`` (``{'Name': Name}``). Lists come back as lists (tuples too); dicts
    without ``class_name`` and ``config`` keys have their values deserialized.

    Raises:
        TypeError: an unknown class or function, a config of the wrong type, or a class that
            cannot be rebuilt from its config.
        ValueError: a lambda while ``safe_mode`` is True (it would run stored bytecode).

    Example:
        >>> import companion as tf
        >>> config = tf.keras.saving.serialize_keras_object(tf.keras.layers.Dense(2, name="d"))
        >>> layer = tf.keras.saving.deserialize_keras_object(config)
        >>> type(layer).__name__, layer.units
        ('Dense', 2)
    """
    scoped = in_safe_mode()
    return _deserialize(config, _objects.custom_objects(custom_objects),
                        safe_mode if scoped is None else scoped)


def _deserialize(config, known, safe_mode):
    if config is None:
        return None
    if isinstance(config, str) and known.get(config) is not None:  # a function saved by its name
        return known[config]
    if isinstance(config, (list, tuple)):
        return [_deserialize(item, known, safe_mode) for item in config]
    if isinstance(config, _PLAIN):
        return config
    if not isinstance(config, dict):
        raise TypeError(f"Could not parse config: {config}")
    if "class_name" not in config or "config" not in config:
        return {key: _deserialize(value, known, safe_mode) for key, value in config.items()}
    class_name = config["class_name"]
    inner = config["config"] if config["config"] is not None else {}
    if class_name in _SPECIAL:
        return _special_value(class_name, inner, config, known, safe_mode)
    module, registered = config.get("module"), config.get("registered_name", class_name)
    if class_name == "function":
        if not isinstance(inner, str):
            raise TypeError(f"Expected 'config' to be a non-null str for a function classname,\n"
                            f"instead got {type(inner)}\nFull config: {config}")
        return _find(inner, inner, module, "function", config, known)
    if not isinstance(inner, dict):
        raise TypeError(f"Expected 'config' to be a dict for {class_name},\ninstead got {type(inner)}\n"
                        f"Full config: {config}")
    cls = _find(class_name, registered, module, "class", config, known)
    if isinstance(cls, types.FunctionType):
        return cls
    if not hasattr(cls, "from_config"):
        raise TypeError(f"Unable to reconstruct an instance of '{class_name}' because the class is missing a "
                        f"`from_config()` method. Full object config: {config}")
    with _objects.CustomObjectScope(known), SafeModeScope(safe_mode):
        try:
            instance = cls.from_config(inner)
        except TypeError as error:
            raise TypeError(f"{cls} could not be deserialized properly. Please ensure that components that "
                            "are Python object instances (layers, models, etc.) returned by `get_config()` "
                            "are explicitly deserialized in the model's `from_config()` method."
                            f"\n\nconfig={config}.\n\nException encountered: {error}") from error
        build_config = config.get("build_config")
        if build_config and not instance.built:
            instance.build_from_config(build_config)
        compile_config = config.get("compile_config")
        if compile_config:
            instance.compile_from_config(compile_config)
    return instance


def _special_value(class_name, inner, config, known, safe_mode):
    if class_name == "__tensor__":
        # deferred: companion's ops import companion.keras (and so this module) at their top
        from companion._core._convert import convert_to_tensor

        return convert_to_tensor(np.asarray(inner["value"], dtype=inner["dtype"]))
    if class_name == "__numpy__":
        return np.array(inner["value"], dtype=inner["dtype"])
    if class_name == "__bytes__":
        return inner["value"].encode("utf-8")
    if class_name == "__ellipsis__":
        return Ellipsis
    if class_name == "__slice__":
        return slice(*(_deserialize(inner[key], known, safe_mode) for key in ("start", "stop", "step")))
    if class_name == "__lambda__":
        if safe_mode:
            raise ValueError("Requested the deserialization of a Python lambda. This carries a potential "
                             "risk of arbitrary code execution and thus it is disallowed by default. If you "
                             "trust the source of the artifact, you can override this error by passing "
                             "`safe_mode=False` to the loading function, or calling "
                             "`keras.config.enable_unsafe_deserialization().")
        return _load_function(*inner["value"])


def _find(name, registered, module, kind, config, known):
    """The class or function a config names: registered or custom first, then companion's public ones."""
    found = _objects.get_registered_object(name if kind == "function" else registered, known)
    if found is not None:
        return found
    if module and (module == "keras" or module.startswith("keras.")):
        found = _public_names.public_symbol(module, name) or _private(module, name)
        if found is not None:
            _check_builtin(config, name, f"{module}.{name}")
            return found
        if _public_names.namespace_of(module) is not None:
            raise ValueError(f"Could not deserialize '{module}.{name}' because it is not a KerasSaveable "
                             "subclass")
        raise TypeError(f"Could not deserialize {kind} '{name}' because its parent module {module} cannot be "
                        f"imported. Full object config: {config}")
    if module and module.split(".")[0] == "companion":
        found = _companion_class(module, name)
        if found is not None:
            return found
    if kind == "function" and module == "builtins":
        for namespace in _public_names.FUNCTION_NAMESPACES:
            found = _public_names.public_symbol(f"keras.{namespace}", name)
            if callable(found) and not isinstance(found, type):
                _check_builtin(config, name, f"keras.{namespace}.{name}")
                return found
        if ">" not in name:  # saved by its bare name: a registered 'package>name' of that name
            for key, value in known.items():
                if key.endswith(f">{name}"):
                    return value
    raise TypeError(f"Could not locate {kind} '{name}'. Make sure custom classes and functions are decorated "
                    "with `@keras.saving.register_keras_serializable()`. If they are already decorated, make "
                    "sure they are all imported so that the decorator is run before trying to load them. "
                    f"Full object config: {config}")


def _private(module, name):
    """Keras's classes that are not exported: ``Model(inputs, outputs)``'s ``Functional``."""
    if (module, name) == ("keras.src.models.functional", "Functional"):
        # deferred: companion.keras.models imports companion.keras.saving at its top
        from companion.keras.models import Model

        return Model
    return None


def _companion_class(module, name):
    try:
        found = getattr(importlib.import_module(module), name, None)
    except ImportError:
        return None
    return found if isinstance(found, type) else None


def _check_builtin(config, name, resolved):
    explicit = config.get("registered_name")
    if explicit and explicit not in (name, config.get("class_name")):
        raise ValueError(f"`registered_name={explicit!r}` was provided in the config, but '{resolved}' "
                         "resolved to a Keras built-in and does not use registered names. Remove the "
                         f"`registered_name` field from the config. Full object config: {config}")


def _dump_function(fn):
    """``(code, defaults, closure)`` of a function: its bytecode as base64 text (this Python's)."""
    code = base64.encodebytes(marshal.dumps(fn.__code__)).decode("ascii")
    closure = tuple(cell.cell_contents for cell in fn.__closure__) if fn.__closure__ else None
    return code, fn.__defaults__, closure


def _load_function(code, defaults=None, closure=None):
    """The function `_dump_function` stored (only ever with ``safe_mode=False``)."""
    code = marshal.loads(base64.decodebytes(code.encode("ascii")))  # noqa: S302 - the caller opted in
    cells = tuple(types.CellType(value) for value in closure) if closure else None
    return types.FunctionType(code, {"__builtins__": builtins}, code.co_name,
                              tuple(defaults) if defaults is not None else None, cells)
