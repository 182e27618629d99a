"""A dataset or string argument's part of a `function` call signature: its spec (TF's trace type).

Both are arguments a program is staged *with*: a loop over a dataset is staged with the dataset's
elements in hand, and string ops run on the host while tracing, so a string tensor's value is
built into the program. TF traces once per spec for them (`DatasetSpec`, ``TensorSpec(dtype=
string)``); `companion._staging._dataset_generic` keeps that visible behaviour.

companion.data is looked up lazily: it is loaded only by programs that use datasets.
"""

import numpy as np

from companion._core._tensor import Tensor


def dataset_keys(leaves, keys):
    """``(keys, arguments)``: the call signature with each dataset argument keyed by its `DatasetSpec`
    instead of its identity, and each string tensor by its shape instead of its value, and those
    arguments in order; ``(keys, None)`` when there are none."""
    datasets = []
    keys = list(keys)
    for i, leaf in enumerate(leaves):
        if keys[i][0] in ("python", "object") and is_dataset(leaf):
            keys[i] = ("dataset", dataset_spec(leaf))
            datasets.append(leaf)
        elif keys[i][0] == "string" and is_string_tensor(leaf):
            keys[i] = ("string", keys[i][2])
            datasets.append(leaf)
    return tuple(keys), datasets or None


def is_string_tensor(value):
    """True for a string tensor (its value lives on the host, as a NumPy array of bytes)."""
    return isinstance(value, Tensor) and value._value.__class__ is np.ndarray


def staged_with(value):
    """True for the arguments a program is staged with: datasets and string tensors."""
    return is_string_tensor(value) or is_dataset(value)


def argument_key(value):
    """What tells two such arguments apart: a dataset's identity, a string tensor's value."""
    if is_string_tensor(value):
        array = value._value
        return ("string", array.shape, tuple(array.ravel().tolist()))
    return id(value)


def dataset_spec(dataset):
    # deferred: companion.data is loaded only by programs that use datasets
    from companion.data import DatasetSpec

    return DatasetSpec(dataset.element_spec)


def is_dataset_spec(value):
    data = __import__("sys").modules.get("companion.data")
    return data is not None and isinstance(value, data.DatasetSpec)


def is_dataset(value):
    data = __import__("sys").modules.get("companion.data")
    return data is not None and isinstance(value, data.Dataset)


def covers(general, spec):
    """True if a trace for the `DatasetSpec` ``general`` takes datasets of ``spec`` (TF: a dataset
    of batches of 2 runs through the trace for batches of None)."""
    # deferred: as in dataset_spec
    from companion.data import _structure

    try:
        pairs = zip(_structure.flatten(general.element_spec), _structure.flatten(spec.element_spec),
                    strict=True)
        return _structure.same_structure(general.element_spec, spec.element_spec) and all(
            type(g) is type(s) and g.dtype == s.dtype and g.shape.is_compatible_with(s.shape)
            and (g.shape.rank is None or g.shape.rank == s.shape.rank)
            and all(a is None or a == b for a, b in zip(g.shape._dims or (), s.shape._dims or ()))
            for g, s in pairs)
    except (ValueError, TypeError, AttributeError):
        return False
