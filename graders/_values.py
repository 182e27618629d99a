"""Values at the edge of learner code: hidden inputs rebuilt as the learner receives them, outputs encoded.

Used where learner code runs: in the sandboxed child (hidden cases) and in the learner's kernel
(public checks). Both sides of the sandbox share `_codec`'s plain-data format; this module adds
the companion-specific parts (tensor and dtype nodes, type names).
"""

from __future__ import annotations

import sys

from graders._codec import array_to_text, encode_plain, text_to_array
from graders._integrity import recorded_module


def decode_input(node: dict):
    """A hidden input node as the learner's function receives it (tensors built with companion)."""
    kind = node["t"]
    if kind in ("array", "tensor"):
        array = text_to_array(node["npy"])
        return _companion().constant(array) if kind == "tensor" else array
    if kind == "dtype":
        return _companion().as_dtype(node["name"])
    if kind in ("list", "tuple"):
        items = [decode_input(item) for item in node["items"]]
        return items if kind == "list" else tuple(items)
    if kind == "dict":
        return {key: decode_input(item) for key, item in zip(node["keys"], node["items"])}
    if kind == "none":
        return None
    return {"bool": bool, "int": int, "float": float, "str": str}[kind](node["v"])


def encode_output(value) -> dict:
    """A returned value as plain data; objects the grader cannot compare keep only their type name.

    An exception raised while reading the value (a tensor whose `numpy()` fails, a lying
    `__array__`) becomes an `unreadable` node; BaseExceptions other than Exception propagate.
    """
    try:
        return encode_plain(value, _encode_object)
    except Exception as error:  # noqa: BLE001 - learner objects may raise anything while being read
        return {"t": "unreadable", "type": type_name(value), "message": _message(error)}


def _message(error: Exception) -> str:
    try:
        return f"{type_name(error, qualified=False)}: {_text(error)[:300]}"
    except Exception:  # noqa: BLE001 - a learner's exception whose __str__ fails
        return type(error).__name__


def _encode_object(value) -> dict:
    name = type_name(value)
    if name.startswith("companion.") and hasattr(value, "numpy") and hasattr(value, "shape"):
        return {"t": "tensor", "type": name, "npy": array_to_text(value.numpy())}
    if name in ("companion.DType", "numpy.dtype") or name.startswith("numpy.dtypes."):
        return {"t": "dtype", "type": name, "name": _text(value.name)}
    return {"t": "object", "type": name}


def type_name(value, qualified: bool = True) -> str:
    """`companion.Tensor`, `numpy.ndarray`, `float`: the public name of a value's type.

    A class that claims a library's module (`__module__ = "companion"`, `__qualname__ = "Function"`)
    but is not found under that name there is the notebook's own: it is named `__main__.<name>`, so
    a plain function dressed as a `tf.function` or an `Adam` does not pass a type check. In the
    grader's child that module must also be the one the library loaded (`_integrity`), not one the
    notebook put in `sys.modules` under a library's name.
    """
    kind = type(value)
    try:
        path = _text(getattr(kind, "__module__", ""))
        name = _text(getattr(kind, "__qualname__", "object"))[:80]
        module = path.split(".")[0]
        if module in _LIBRARIES and "<locals>" not in name and not (
                _found_at(kind, path, name) and recorded_module(path) is not False):
            module = "__main__"
    except Exception:  # noqa: BLE001 - a class whose __module__ is an object that cannot be read
        return "object"
    return name if module in ("builtins", "") or not qualified else f"{module}.{name}"


_LIBRARIES = ("companion", "graders", "jax", "numpy")


def _found_at(kind: type, path: str, name: str) -> bool:
    """Whether `path`'s module, already imported, holds `kind` under `name`."""
    found = sys.modules.get(path)
    for part in name.split("."):
        found = getattr(found, part, None)
    return found is kind


def _text(value) -> str:
    """`str(value)` as a plain str: a learner's `__str__` may return a str subclass with lying methods."""
    return str.__str__(str(value))


def _companion():
    import companion

    return companion
