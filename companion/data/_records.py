"""A file format for streams of elements (for `cache` files and `save`): ``.npy`` records in a row.

Each element is written leaf by leaf as NumPy ``.npy`` arrays (no pickling). A string leaf
is two arrays: the byte length of every string (with the leaf's shape) and all bytes joined.
Specs are stored as JSON next to the data so another process can read the file back.
"""

import json

import numpy as np

from companion._core import _dtypes
from companion._core._errors import DataLossError
from companion._core._shape import TensorShape
from companion.data import _spec, _structure


def write_element(file, element):
    """Appends one element (a structure of leaves) to an open binary ``file``."""
    for leaf in _structure.flatten(element):
        array = np.asarray(leaf)
        if array.dtype == object:
            parts = [bytes(b) for b in array.ravel()]
            np.lib.format.write_array(file, np.array([len(b) for b in parts], np.int64).reshape(array.shape))
            np.lib.format.write_array(file, np.frombuffer(b"".join(parts), np.uint8))
        else:
            np.lib.format.write_array(file, array if array.flags.c_contiguous else array.copy())


def read_elements(file, spec, path):
    """Generator of the elements stored in ``file`` (written for elements of ``spec``).

    Raises:
        DataLossError: the file ends inside an element or is not in this format.
    """
    leaf_specs = _structure.flatten(spec)
    while file.peek(1) if hasattr(file, "peek") else _has_more(file):
        try:
            leaves = [_read_leaf(file, s) for s in leaf_specs]
        except (ValueError, EOFError) as error:
            raise DataLossError(f"The element file {path} is truncated or corrupted ({error}). Delete it "
                                "(and its .index / metadata file) so that it is written again.") from error
        yield _structure.pack(spec, leaves)


def spec_to_json(spec):
    """A JSON text describing a spec structure (TensorSpecs in tuples/dicts)."""
    return json.dumps(_encode(spec))


def spec_from_json(text):
    return _decode(json.loads(text))


def _read_leaf(file, spec):
    array = np.lib.format.read_array(file, allow_pickle=False)
    if spec.dtype.name != "string":
        return array
    data = np.lib.format.read_array(file, allow_pickle=False).tobytes()
    ends = np.cumsum(array.ravel())
    strings = [data[end - n:end] for end, n in zip(ends, array.ravel())]
    out = np.empty(len(strings), dtype=object)
    out[:] = strings
    return out.reshape(array.shape)


def _has_more(file):
    position = file.tell()
    more = bool(file.read(1))
    file.seek(position)
    return more


def _encode(spec):
    if isinstance(spec, dict):
        return {"dict": [[key, _encode(value)] for key, value in spec.items()]}
    if isinstance(spec, tuple):
        return {"tuple": [_encode(value) for value in spec]}
    shape = None if spec.shape.rank is None else spec.shape.as_list()
    return {"tensor": {"shape": shape, "dtype": spec.dtype.name}}


def _decode(obj):
    if "dict" in obj:
        return {key: _decode(value) for key, value in obj["dict"]}
    if "tuple" in obj:
        return tuple(_decode(value) for value in obj["tuple"])
    tensor = obj["tensor"]
    return _spec.TensorSpec(TensorShape(tensor["shape"]), _dtypes.as_dtype(tensor["dtype"]))
