"""Plain-data encoding of values crossing the sandbox boundary: JSON trees with arrays as .npy bytes.

Both sides use it: the parent encodes hidden inputs and decodes the child's outputs; the child
decodes inputs and encodes outputs. Nothing here can run code on decoding: arrays are read with
`np.load(allow_pickle=False)` and every other node is a JSON scalar.
"""

from __future__ import annotations

import base64
import io

import numpy as np

MAX_ARRAY_BYTES = 16 * 2**20
MAX_TEXT = 2000
MAX_ITEMS = 1000
MAX_KEY = 100


class DecodeError(ValueError):
    """Encoded data is malformed or over the grader's size limits."""


def encode_plain(value, encode_other) -> dict:
    """Encode None/bool/int/float/str/ndarray/list/tuple/str-keyed dict; `encode_other` for the rest.

    Subclasses of the builtins are read through the builtins' own methods, so every node holds only
    plain str/list values that JSON can write (a str subclass whose slicing returns an object, or a
    list whose `__len__` lies, cannot break the child's writer or pass the size limits).
    """
    if value is None or isinstance(value, bool):
        return {"t": "none"} if value is None else {"t": "bool", "v": bool(value)}
    if isinstance(value, int):
        return {"t": "int", "v": str(int(value))}
    if isinstance(value, float):
        return {"t": "float", "v": repr(float(value))}
    if isinstance(value, str):  # str.__str__: a plain str, whatever a subclass's slicing returns
        return {"t": "str", "v": str.__str__(value)[:MAX_TEXT]}
    if isinstance(value, np.ndarray | np.generic):
        return {"t": "array", "npy": array_to_text(np.asarray(value))}
    if isinstance(value, list | tuple):  # the stored items, whatever a subclass's __len__/__iter__ say
        items = list.copy(value) if isinstance(value, list) else tuple.__getitem__(value, slice(None))
        if len(items) <= MAX_ITEMS:
            kind = "list" if isinstance(value, list) else "tuple"
            return {"t": kind, "items": [encode_plain(item, encode_other) for item in items]}
    if type(value) is dict and len(value) <= MAX_ITEMS and all(type(key) is str for key in value):
        return {"t": "dict", "keys": [key[:MAX_KEY] for key in value],
                "items": [encode_plain(item, encode_other) for item in value.values()]}
    return encode_other(value)


def array_to_text(array: np.ndarray) -> str:
    """An array as base64 .npy text (no pickles: object arrays raise ValueError)."""
    array = np.array(array, copy=True, subok=False)
    if array.nbytes > MAX_ARRAY_BYTES:
        raise ValueError(f"array of {array.nbytes} bytes is over the grader's limit of {MAX_ARRAY_BYTES}")
    buffer = io.BytesIO()
    np.save(buffer, array, allow_pickle=False)
    return base64.b64encode(buffer.getvalue()).decode("ascii")


def text_to_array(text) -> np.ndarray:
    """The array stored by `array_to_text`; DecodeError if it is not a plain .npy payload.

    The header is read and checked first (a numeric or string dtype, a shape whose size matches
    the bytes that follow, within MAX_ARRAY_BYTES), so a forged header never causes an allocation.
    """
    if not isinstance(text, str) or len(text) > MAX_ARRAY_BYTES * 4 // 3 + 1024:
        raise DecodeError("array payload is not text or is over the size limit")
    try:
        data = base64.b64decode(text, validate=True)
        stream = io.BytesIO(data)
        shape, fortran, dtype = _header(stream)
        body = data[stream.tell():]
        count = int(np.prod(shape, dtype=object))
        if dtype.hasobject or dtype.itemsize == 0 and count or count * dtype.itemsize != len(body):
            raise ValueError(f"header says {shape} of {dtype}, but {len(body)} bytes follow")
        array = np.frombuffer(body, dtype=dtype, count=count).reshape(shape, order="F" if fortran else "C")
        return array.copy()
    except (ValueError, TypeError, OSError, EOFError, OverflowError) as error:
        raise DecodeError(f"array payload is not a plain .npy array: {error}") from None


def _header(stream: io.BytesIO) -> tuple[tuple[int, ...], bool, np.dtype]:
    """The checked (shape, fortran_order, dtype) of a .npy stream positioned at its start."""
    version = np.lib.format.read_magic(stream)
    readers = {(1, 0): np.lib.format.read_array_header_1_0, (2, 0): np.lib.format.read_array_header_2_0}
    if version not in readers:
        raise ValueError(f"unsupported .npy version {version}")
    shape, fortran, dtype = readers[version](stream, max_header_size=1024)
    if len(shape) > 32 or any(not isinstance(n, int) or n < 0 for n in shape):
        raise ValueError(f"bad shape {shape!r}")
    if int(np.prod(shape, dtype=object)) * max(dtype.itemsize, 1) > MAX_ARRAY_BYTES:
        raise ValueError(f"an array of shape {shape} and dtype {dtype} is over the grader's size limit")
    return shape, fortran, dtype


def scalar(node: dict):
    """The Python value of a none/bool/int/float/str node; DecodeError otherwise."""
    kind, raw = node.get("t"), node.get("v")
    try:
        if kind == "none":
            return None
        if kind == "bool" and isinstance(raw, bool):
            return raw
        if kind == "int" and isinstance(raw, str) and len(raw) < 400:
            return int(raw)
        if kind == "float" and isinstance(raw, str) and len(raw) < 40:
            return float(raw)
        if kind == "str" and isinstance(raw, str):
            return raw
    except ValueError:
        pass
    raise DecodeError(f"malformed {kind!r} node")


def children(node: dict) -> list[dict]:
    """The items of a list/tuple/dict node, checked to be nodes."""
    items = node.get("items")
    if not isinstance(items, list) or len(items) > MAX_ITEMS or not all(isinstance(i, dict) for i in items):
        raise DecodeError(f"malformed {node.get('t')!r} node")
    return items


def keys(node: dict) -> list[str]:
    """The keys of a dict node, checked to be short strings, distinct, one per item."""
    names = node.get("keys")
    if (not isinstance(names, list) or len(names) != len(children(node))
            or not all(isinstance(name, str) and len(name) <= MAX_KEY for name in names)
            or len(set(names)) != len(names)):
        raise DecodeError("malformed 'dict' node")
    return names


_KINDS = {
    "none": {}, "bool": {"v": bool}, "int": {"v": str}, "float": {"v": str}, "str": {"v": str},
    "array": {"npy": str}, "tensor": {"npy": str}, "dtype": {"name": str},
    "list": {"items": list}, "tuple": {"items": list}, "dict": {"keys": list, "items": list},
    "error": {}, "object": {}, "unreadable": {},
}
_OPTIONAL = {"type": str, "message": str, "timeout": bool, "name": str}
MAX_NODES = 20_000
MAX_DEPTH = 32


def valid_node(node, depth: int = 0, budget: list[int] | None = None) -> bool:
    """Whether `node` is a well-formed plain-data node (the schema of everything a child may send).

    Every node is an object whose "t" names a known kind with the fields of that kind (of the
    right JSON types, within size limits), nested at most MAX_DEPTH deep and MAX_NODES in all.
    Arrays are checked again, header first, when decoded.
    """
    budget = [MAX_NODES] if budget is None else budget
    budget[0] -= 1
    if budget[0] < 0 or depth > MAX_DEPTH or not isinstance(node, dict) or not isinstance(node.get("t"), str):
        return False
    fields = _KINDS.get(node["t"])
    if fields is None or not set(node) <= {"t", *fields, *_OPTIONAL}:
        return False
    for name, kind in {**_OPTIONAL, **fields}.items():
        if (name in fields or name in node) and not isinstance(node.get(name), kind):
            return False
        limit = MAX_ARRAY_BYTES * 2 if name == "npy" else MAX_TEXT
        if isinstance(node.get(name), str) and len(node[name]) > limit:
            return False
    if node["t"] in ("list", "tuple", "dict"):
        items = node["items"]
        if len(items) > MAX_ITEMS or not all(valid_node(item, depth + 1, budget) for item in items):
            return False
        if node["t"] == "dict":
            names = node["keys"]
            return (len(names) == len(items) and len(set(map(str, names))) == len(names)
                    and all(isinstance(name, str) and len(name) <= MAX_KEY for name in names))
    return True
