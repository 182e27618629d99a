"""Backend dtypes: Keras's dtype names, its type-promotion lattice, and casts.

`standardize_dtype` and `result_type` follow Keras 3 under its TensorFlow backend (``int`` is
``'int64'``, 64-bit types are kept); `dtype`, `cast` and `cast_to_floatx` are the legacy backend's.
"""

import functools

import numpy as np

from companion import math as _math
from companion._core._tensor import Tensor
from companion._core._variable import Variable
from companion.keras.backend._config import floatx
from companion.sparse import SparseTensor

_FLOAT8 = ("float8_e4m3fn", "float8_e5m2")
_ALLOWED = ("float16", "float32", "float64", "uint8", "uint16", "uint32", "uint64", "int8", "int16", "int32",
            "int64", "bfloat16", "bool", "string", *_FLOAT8, "complex64", "complex128")
_PYTHON = {bool: "bool", int: "int64", float: "float32", str: "string", "int": "int64", complex: "complex128"}
_WEAK = ("int", "float")
# Keras's promotion lattice (adapted from JAX): each type and the types just above it.
_LATTICE = {
    "bool": ["int"], "uint8": ["int16", "uint16"], "uint16": ["int32", "uint32"],
    "uint32": ["int64", "uint64"], "uint64": ["float"], "int": ["uint8", "int8", "complex64"],
    "int8": ["int16"], "int16": ["int32"], "int32": ["int64"], "int64": ["float"],
    "float": ["bfloat16", "float16"], "bfloat16": ["float32"], "float16": ["float32"],
    "float32": ["float64", "complex64"], "float64": ["complex128"], "complex64": ["complex128"],
    "complex128": [],
}


def _upper_bounds():
    bounds = {node: {node} for node in _LATTICE}
    for node in _LATTICE:
        while True:
            wider = set().union(*(_LATTICE[b] for b in bounds[node]))
            if wider.issubset(bounds[node]):
                break
            bounds[node] |= wider
    return bounds


_UPPER_BOUNDS = _upper_bounds()


def standardize_dtype(dtype):
    """Keras's name for ``dtype`` (a DType, NumPy dtype or type, Python type or name).

    ``None`` is `floatx`; Python ``int`` is ``'int64'`` and ``float`` is ``'float32'`` (Keras's
    TensorFlow backend).

    Raises:
        ValueError: ``dtype`` names no dtype Keras knows.

    Example:
        >>> import companion as tf
        >>> K = tf.keras.backend
        >>> K.standardize_dtype(tf.float16), K.standardize_dtype(int), K.standardize_dtype(None)
        ('float16', 'int64', 'float32')
    """
    if dtype is None:
        return floatx()
    try:
        dtype = _PYTHON.get(dtype, dtype)
    except TypeError:  # unhashable: not a dtype
        raise ValueError(f"Invalid dtype: {dtype!r}. Expected a dtype or its name, one of {_ALLOWED}. "
                         f"Received: dtype={dtype!r}") from None
    if hasattr(dtype, "name"):
        dtype = dtype.name
    elif hasattr(dtype, "__name__"):
        dtype = dtype.__name__
    if dtype not in _ALLOWED:
        raise ValueError(f"Invalid dtype: {dtype}. Expected one of {_ALLOWED}. Received: dtype={dtype!r}")
    return dtype


def is_float_dtype(dtype):
    """Whether ``dtype`` is a floating type (``float16/32/64``, ``bfloat16``).

    Example:
        >>> import companion as tf
        >>> tf.keras.backend.is_float_dtype("bfloat16"), tf.keras.backend.is_float_dtype(tf.int32)
        (True, False)
    """
    dtype = standardize_dtype(dtype)
    return dtype.startswith("float") or dtype.startswith("bfloat")


def is_int_dtype(dtype):
    """Whether ``dtype`` is a signed or unsigned integer type.

    Example:
        >>> import companion as tf
        >>> tf.keras.backend.is_int_dtype("uint8"), tf.keras.backend.is_int_dtype(float)
        (True, False)
    """
    dtype = standardize_dtype(dtype)
    return dtype.startswith("int") or dtype.startswith("uint")


@functools.lru_cache(512)
def _least_upper_bound(*nodes):
    nodes = set(nodes)
    common = set.intersection(*(_UPPER_BOUNDS[n] for n in nodes))
    least = (common & nodes) or {c for c in common if common.issubset(_UPPER_BOUNDS[c])}
    if len(least) != 1:
        raise ValueError(f"Input dtypes {tuple(sorted(nodes))} have no available implicit dtype promotion "
                         "path. Try explicitly casting inputs to the desired output type.")
    return least.pop()


def _weak(dtype, weak):
    if not weak or dtype == "bool":
        return dtype
    for kind in ("float", "int", "complex"):
        if kind in dtype:
            return kind
    raise ValueError(f"Invalid value for argument `dtype`. Expected one of {_ALLOWED}. "
                     f"Received: dtype={dtype}")


def _resolve_weak(dtype, precision):
    indicator = "f" if dtype == "bfloat16" else dtype[:1]
    if indicator == "b":
        return "bool"
    if indicator == "i":
        return f"int{precision}"
    if indicator == "u":
        return f"uint{precision}"
    return f"float{precision}"


def result_type(*dtypes):
    """The dtype Keras's type promotion gives for ``dtypes`` (JAX's lattice, 64-bit kept).

    Python ``int`` and ``float`` are *weak*: they take the other operand's kind and width
    (``int32`` with ``float`` is ``float32``). No argument gives `floatx`.

    Raises:
        ValueError: a dtype is unknown, a float8 type, or the dtypes have no promotion path.

    Example:
        >>> import companion as tf
        >>> K = tf.keras.backend
        >>> K.result_type("int32", "float32"), K.result_type("int8", int), K.result_type("uint8", "int8")
        ('float32', 'int8', 'int16')
    """
    if not dtypes:
        return floatx()
    for dtype in dtypes:
        if isinstance(dtype, str) and dtype in _FLOAT8:
            raise ValueError("There is no implicit conversions from float8 dtypes to others. You must cast "
                             f"it internally. Received: {dtypes}")
    dtypes = [floatx() if d is None else d for d in dtypes]
    names = [standardize_dtype(d) for d in dtypes]
    weaks = [d is int or d is float for d in dtypes]
    if len(names) == 1:
        out, out_weak = names[0], weaks[0]
    elif len(set(names)) == 1 and not all(weaks):
        out, out_weak = names[0], False
    elif all(weaks):
        out, out_weak = _least_upper_bound(*set(names)), True
    else:
        out = _least_upper_bound(*{_weak(n, w) for n, w in zip(names, weaks)})
        out_weak = out in _WEAK
    if out != "bool" and out_weak:
        out = _resolve_weak(out, floatx()[-2:])
    return {"uint64": "uint32", "complex128": "complex64"}.get(out, out)


def dtype(x):
    """The name of the dtype of tensor or Variable ``x``.

    Example:
        >>> import companion as tf
        >>> tf.keras.backend.dtype(tf.constant([1, 2]))
        'int32'
    """
    found = getattr(x, "dtype", None)
    if found is None:
        raise AttributeError(f"dtype() expects a tensor or Variable (something with a `dtype`). "
                             f"Received: x={x!r} of type {type(x).__name__}")
    return found.base_dtype.name if hasattr(found, "base_dtype") else standardize_dtype(found)


def cast(x, dtype):
    """``x`` converted to ``dtype`` (a tensor).

    Example:
        >>> import companion as tf
        >>> tf.keras.backend.cast(tf.constant([1.7, -1.7]), "int32").numpy()
        array([ 1, -1], dtype=int32)
    """
    return _math.cast(x, dtype)


def cast_to_floatx(x):
    """``x`` as `floatx`: a tensor stays a tensor, anything else becomes a NumPy array.

    Example:
        >>> import companion as tf
        >>> tf.keras.backend.cast_to_floatx([1, 2])
        array([1., 2.], dtype=float32)
    """
    if isinstance(x, (Tensor, Variable, SparseTensor)):
        return _math.cast(x, floatx())
    return np.asarray(x, dtype=floatx())
