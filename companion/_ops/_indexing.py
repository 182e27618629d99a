"""Indexing (``x[...]``) as an op: static ints/slices/``...``/``None``, plus tensor and mask indices."""

import jax
import numpy as np

from companion._core._convert import as_input
from companion._core._errors import InvalidArgumentError, RuntimeCheckError
from companion._core._op import op
from companion._core._tensor import Tensor
from companion._ops import _host_index_checks


def getitem(x, key, wrap=Tensor):
    """``x[key]`` for a Tensor or Variable, recorded on tapes like any op.

    Supports ints, slices, ``...``, ``None`` (new axis), integer tensors/arrays/lists
    (gathered along their axis) and boolean masks (eager only: the result's size
    depends on the mask's values).
    """
    spec, arrays = normalize_key(key)
    _check_int_indices(spec, x.shape)
    if arrays and _host_index_checks.active():
        arrays = _checked_traced_indices(spec, x.shape, arrays)
    return _getitem.apply((x, *arrays), {"spec": spec}, wrap=wrap)


def iterate_rows(x):
    """``iter(x)`` for an eager tensor: ``x[0]``, ``x[1]``, ... made one at a time, as TF does.

    Each row is one dispatch of a program compiled once per shape and dtype (the index is an
    input, not a constant), so taking the first row of a long tensor is cheap (matplotlib
    does that to every sequence it plots) and a whole pass costs microseconds per row.
    """
    for i in range(x._v.shape[0]):
        yield _row.apply((x, Tensor(jax.device_put(np.int32(i)))), {})


def normalize_key(key):
    """Turns an index into a hashable static ``spec`` plus the index tensors it refers to."""

    # TF reads a Python list as a tuple of indices: ``x[[0, 2]]`` is ``x[0, 2]``
    items = tuple(key) if isinstance(key, (tuple, list)) else (key,)
    spec, arrays = [], []
    for item in items:
        if item is Ellipsis:
            spec.append(("e",))
        elif item is None:
            spec.append(("n",))
        elif isinstance(item, slice):
            spec.append(("s", _bound(item.start), _bound(item.stop), _bound(item.step)))
        elif isinstance(item, (int, np.integer)) and not isinstance(item, bool):
            spec.append(("i", int(item)))
        else:
            index = as_input(item)
            if index.dtype.is_bool:
                for axis_index in np.nonzero(np.asarray(index)):
                    spec.append(("a", len(arrays)))
                    arrays.append(as_input(axis_index.astype(np.int64)))
            elif index.dtype.is_integer and index.ndim == 0 and not index.is_traced:
                spec.append(("i", int(index)))
            elif index.dtype.is_integer:
                spec.append(("a", len(arrays)))
                arrays.append(index)
            else:
                raise TypeError(f"Only integers, slices, `...`, None, integer tensors and boolean "
                                f"masks are valid indices. Received: {item!r}")
    return tuple(spec), arrays


def build_index(spec, arrays):
    """The NumPy-style index tuple described by ``spec`` (used inside the pure functions)."""
    out = []
    for entry in spec:
        kind = entry[0]
        if kind == "e":
            out.append(Ellipsis)
        elif kind == "n":
            out.append(None)
        elif kind == "s":
            out.append(slice(*entry[1:]))
        elif kind == "i":
            out.append(entry[1])
        else:
            out.append(arrays[entry[1]])
    return tuple(out)


@op("row")
def _row(x, index):
    return jax.lax.dynamic_index_in_dim(x, index, axis=0, keepdims=False)


@op("getitem", static=("spec",))
def _getitem(x, *index_arrays, spec):
    return x[build_index(spec, index_arrays)]


def _check_int_indices(spec, shape):
    """An integer index past an axis's size raises (JAX would clamp it and return a wrong element)."""
    for entry, axis, size in _indexed_axes(spec, shape):
        if entry[0] == "i" and size is not None and not -size <= entry[1] < size:
            raise InvalidArgumentError(
                f"Index {entry[1]} is out of bounds for axis {axis} of a tensor of shape {shape}: "
                f"valid indices are {-size} to {size - 1}. Received index {entry[1]}.")


def _indexed_axes(spec, shape):
    """``(entry, axis, size)`` for each entry of ``spec`` that indexes an axis of ``shape``."""
    consumed = [entry for entry in spec if entry[0] in "sia"]
    if shape.rank is None or len(consumed) > shape.rank:
        return
    axis = 0
    for entry in spec:
        if entry[0] == "e":
            axis += shape.rank - len(consumed)
        elif entry[0] != "n":
            yield entry, axis, shape[axis]
            axis += 1


def _checked_traced_indices(spec, shape, arrays):
    """In a dataset function (TF runs it on the CPU), a traced scalar index is checked when the
    program runs, as TF's strided slice checks it; JAX would clamp it (`_host_index_checks`)."""
    arrays = list(arrays)
    for entry, axis, size in _indexed_axes(spec, shape):
        index = arrays[entry[1]] if entry[0] == "a" else None
        if index is None or not index.is_traced or index.ndim != 0 or size is None:
            continue

        def check(values, axis=axis, size=size):
            bad = (values < -size) | (values >= size)
            if bad.any():
                raise RuntimeCheckError(f"slice index {int(values[bad].reshape(-1)[0])} of dimension "
                                        f"{axis} out of bounds.")

        arrays[entry[1]] = Tensor(_host_index_checks.checked(index._value, check,
                                                             lambda v, size=size: (v < -size) | (v >= size)))
    return arrays


def _bound(value):
    if value is None:
        return None
    if getattr(value, "_is_variable", False):
        value = value.value()
    if hasattr(value, "__index__"):
        return value.__index__()
    raise TypeError(f"Slice bounds must be integers or None. Received: {value!r}")
