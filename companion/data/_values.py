"""Element leaves inside a pipeline (NumPy or JAX arrays) and their conversion to and from Tensors.

Inside a pipeline an element is a nested structure whose leaves are NumPy arrays (host
memory, cheap to slice and stack; strings are object arrays of ``bytes``) or ``jax.Array``s
(results of compiled map functions, device-resident sources). Users only ever see companion
Tensors (``iter``) or NumPy values (``as_numpy_iterator``); windows are Datasets.
"""

import jax
import numpy as np

from companion._core import _dtypes
from companion._core._convert import from_numpy, to_device, to_numpy
from companion._core._errors import InvalidArgumentError
from companion._core._tensor import Tensor
from companion.data import _ragged, _structure

DEVICE_BYTES = 1 << 20  # in-memory sources at least this large are kept on the default device


def is_dataset(value):
    return hasattr(value, "_node") and hasattr(value, "element_spec")


def to_leaf(value, dtype=None):
    """One tensor-like value as a leaf, with TensorFlow's conversion rules and optional ``dtype``."""
    if is_dataset(value) or _ragged.is_ragged(value):
        return value
    if isinstance(value, Tensor) or getattr(value, "_is_variable", False):
        tensor = value if isinstance(value, Tensor) else value._read()
        if dtype is None or tensor.dtype == _dtypes.as_dtype(dtype):
            return tensor._value
        value = np.asarray(tensor._value)
    elif isinstance(value, jax.Array) and (dtype is None or _dtypes.as_dtype(value.dtype) == dtype):
        return value
    elif hasattr(value, "__array__") and not isinstance(value, (np.ndarray, np.generic, list, tuple)):
        value = np.asarray(value)  # pandas Series, array-likes
    if dtype is not None and isinstance(value, list) and np.size(value) == 0:
        return np.asarray(value, dtype=_dtypes.as_dtype(dtype)._np)  # core infers [] as float32
    array = to_numpy(value, dtype)
    return _as_bytes(array) if array.dtype.kind in "OSU" else array


def normalize(value, spec=None):
    """A user value (nested tuples/dicts of tensor-likes) as a structure of leaves."""
    if isinstance(value, dict) or isinstance(value, tuple):
        specs = spec if spec is not None and _structure.same_structure(value, spec) else None
        if specs is None:
            return _structure.map_structure(to_leaf, value)
        return _structure.map_structure(lambda v, s: to_leaf(v, s.dtype), value, specs)
    return to_leaf(value, None if spec is None else spec.dtype)


def leaf_dtype(leaf):
    if _ragged.is_ragged(leaf):
        return leaf.dtype
    return _dtypes.string if leaf.dtype == object else _dtypes.as_dtype(leaf.dtype)


def to_tensor(leaf):
    """The Tensor a user sees for ``leaf`` (datasets pass through)."""
    if type(leaf) is np.ndarray:  # (exact type checks: isinstance on jax.Array is slow)
        # a transfer, not jnp.asarray: that compiles a copy program per new shape and dtype
        return Tensor(leaf) if leaf.dtype == object else from_numpy(leaf)
    if isinstance(leaf, Tensor) or is_dataset(leaf) or _ragged.is_ragged(leaf):
        return leaf  # already what a user sees (a function tf.data calls inside another's, as
    return Tensor(leaf)  # bucket_by_sequence_length's length function inside its key function)


def to_numpy_value(leaf):
    """The NumPy value ``as_numpy_iterator`` yields: an array, a NumPy scalar, or ``bytes``."""
    if is_dataset(leaf):
        return leaf
    if _ragged.is_ragged(leaf):
        return leaf.numpy()
    array = np.asarray(leaf)
    return array[()] if array.ndim == 0 else array


def as_host(leaf):
    """``leaf`` as a NumPy array (datasets pass through)."""
    return leaf if is_dataset(leaf) or _ragged.is_ragged(leaf) else np.asarray(leaf)


def stack(leaves, component=0):
    """Stacks the leaves of several elements along a new first axis (a batch).

    Raises:
        InvalidArgumentError: the leaves have different shapes.
    """
    arrays = [np.asarray(leaf) for leaf in leaves]
    first = arrays[0].shape
    for i, array in enumerate(arrays):
        if array.shape != first:
            raise InvalidArgumentError(
                f"Cannot batch tensors with different shapes in component {component}. First element "
                f"had shape {list(first)} and element {i} had shape {list(array.shape)}. Use "
                "padded_batch to pad them to a common shape, or resize them in a map first.")
    return np.stack(arrays)


def maybe_on_device(leaves):
    """Moves numeric leaves to the default device when they are large in total (see DEVICE_BYTES)."""
    numeric = [x for x in leaves if isinstance(x, (np.ndarray, jax.Array)) and x.dtype != object]
    if sum(x.nbytes for x in numeric) < DEVICE_BYTES:
        return [np.asarray(x) if isinstance(x, jax.Array) else x for x in leaves]
    return [to_device(x) if isinstance(x, np.ndarray) and x.dtype != object else x for x in leaves]


def _as_bytes(array):
    array = np.asarray(array, dtype=object)
    if array.size == 0:
        return array
    return np.vectorize(_to_bytes, otypes=[object])(array)


def _to_bytes(item):
    if isinstance(item, str):
        return item.encode("utf-8")
    return bytes(item) if isinstance(item, (bytearray, np.bytes_)) else item
