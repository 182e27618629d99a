"""Keras 3's public names of companion's Keras classes, both ways: ``Dense`` <-> ``'keras.layers.Dense'``.

A class's public module is the first namespace that exports it under its own name, the
top-level ``keras`` first: ``keras.Layer``, ``keras.Sequential``, ``keras.DTypePolicy``,
then ``keras.layers.Dense``, ``keras.optimizers.LossScaleOptimizer`` (not
``keras.mixed_precision``), ``keras.saving.CustomObjectScope`` (not ``keras.utils``) -- the
canonical names Keras writes in a serialized object's ``module``.
"""

import functools
import importlib

# searched in this order: a class exported in several places gets the first
_NAMESPACES = ("", "layers", "losses", "metrics", "optimizers", "optimizers.schedules", "initializers",
               "regularizers", "constraints", "activations", "models", "saving", "callbacks",
               "mixed_precision", "utils")
# where a function serialized under module 'builtins' (only its name) is looked for
FUNCTION_NAMESPACES = ("activations", "losses", "metrics", "initializers", "regularizers", "constraints",
                       "optimizers")


def public_module(cls):
    """``'keras.layers'`` for companion's ``Dense``; None for a class companion does not export."""
    return _modules().get(cls)


def public_symbol(module, name):
    """The object Keras calls ``{module}.{name}`` (``'keras.layers'``, ``'Conv2D'`` or an alias such as
    ``'Convolution2D'``), or None when companion has no such public name."""
    namespace = namespace_of(module)
    found = getattr(namespace, name, None) if namespace is not None and not name.startswith("_") else None
    return found if found is not None and _is_companion(found) else None


def namespace_of(module):
    """companion's module for Keras's public module name (``'keras.layers'``), or None."""
    parts = module.split(".")
    if parts[0] != "keras" or any(not p or p.startswith("_") for p in parts):
        return None
    try:
        return importlib.import_module(".".join(["companion", *parts]))
    except ImportError:
        return None


@functools.cache
def _modules():
    found = {}
    for path in _NAMESPACES:
        namespace = importlib.import_module("companion.keras" + ("." + path if path else ""))
        public = "keras" + ("." + path if path else "")
        for name, value in vars(namespace).items():
            if isinstance(value, type) and value.__name__ == name and not name.startswith("_") \
                    and _is_companion(value):
                found.setdefault(value, public)
    return found


def _is_companion(obj):
    return (getattr(obj, "__module__", None) or "").split(".")[0] == "companion"
