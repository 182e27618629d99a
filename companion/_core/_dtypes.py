"""`DType`: TensorFlow's dtype objects over NumPy/JAX dtypes, and conversion to them."""

import ml_dtypes
import numpy as np


class DType:
    """A tensor element type, comparable with other DTypes, NumPy dtypes and names.

    Example:
        >>> import companion as tf
        >>> tf.constant([1, 2]).dtype == tf.int32
        True
        >>> tf.float32.name, tf.float32 == "float32"
        ('float32', True)
    """

    __slots__ = ("_name", "_np")

    def __init__(self, name, np_dtype):
        self._name = name
        self._np = np_dtype

    @property
    def name(self):
        return self._name

    @property
    def as_numpy_dtype(self):
        """The NumPy scalar type (``np.float32``, …; ``object`` for strings)."""
        return self._np.type

    @property
    def is_floating(self):
        return self._name in _FLOATING

    @property
    def is_integer(self):
        return self._name in _INTEGER

    @property
    def is_unsigned(self):
        return self._name.startswith("uint")

    @property
    def is_complex(self):
        return self._name.startswith("complex")

    @property
    def is_bool(self):
        return self._name == "bool"

    @property
    def is_numeric(self):
        return self._name not in ("bool", "string")

    @property
    def size(self):
        return 0 if self._name == "string" else self._np.itemsize

    @property
    def min(self):
        return _limits(self).min

    @property
    def max(self):
        return _limits(self).max

    @property
    def real_dtype(self):
        return {"complex64": float32, "complex128": float64}.get(self._name, self)

    @property
    def base_dtype(self):
        return self

    def is_compatible_with(self, other):
        return self == as_dtype(other)

    def __eq__(self, other):
        if isinstance(other, DType):
            return self._name == other._name
        try:
            return self._name == as_dtype(other)._name
        except (TypeError, ValueError):
            return NotImplemented

    def __ne__(self, other):
        result = self.__eq__(other)
        return result if result is NotImplemented else not result

    def __hash__(self):
        return hash(self._name)

    def __repr__(self):
        return f"companion.{self._name}"

    def __str__(self):
        """TF's str of a dtype, what `print(x.dtype)` shows: ``<dtype: 'float32'>``."""
        return f"<dtype: '{self._name}'>"

    def __reduce__(self):
        return as_dtype, (self._name,)


def _limits(dtype):
    if dtype.is_floating:
        return ml_dtypes.finfo(dtype._np)
    if dtype.is_integer:
        return np.iinfo(dtype._np)
    if dtype.is_bool:
        return _BoolLimits
    raise TypeError(f"{dtype.name} has no min/max. Use a numeric dtype such as companion.float32.")


class _BoolLimits:
    min = False
    max = True


_NP = {
    "bool": np.dtype(np.bool_),
    "int8": np.dtype(np.int8),
    "int16": np.dtype(np.int16),
    "int32": np.dtype(np.int32),
    "int64": np.dtype(np.int64),
    "uint8": np.dtype(np.uint8),
    "uint16": np.dtype(np.uint16),
    "uint32": np.dtype(np.uint32),
    "uint64": np.dtype(np.uint64),
    "float16": np.dtype(np.float16),
    "bfloat16": np.dtype(ml_dtypes.bfloat16),
    "float32": np.dtype(np.float32),
    "float64": np.dtype(np.float64),
    "complex64": np.dtype(np.complex64),
    "complex128": np.dtype(np.complex128),
    "string": np.dtype(object),
}
_FLOATING = {"float16", "bfloat16", "float32", "float64"}
_INTEGER = {"int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64"}

_BY_NAME = {name: DType(name, np_dtype) for name, np_dtype in _NP.items()}
_BY_NP = {np_dtype: dtype for dtype in _BY_NAME.values() if (np_dtype := dtype._np) != np.dtype(object)}
_ALIASES = {"float": "float32", "double": "float64", "half": "float16", "int": "int32",
            "long": "int64", "bytes": "string", "str": "string", "object": "string"}

bool = _BY_NAME["bool"]  # noqa: A001 - TensorFlow's public name
int8 = _BY_NAME["int8"]
int16 = _BY_NAME["int16"]
int32 = _BY_NAME["int32"]
int64 = _BY_NAME["int64"]
uint8 = _BY_NAME["uint8"]
uint16 = _BY_NAME["uint16"]
uint32 = _BY_NAME["uint32"]
uint64 = _BY_NAME["uint64"]
float16 = _BY_NAME["float16"]
half = float16
bfloat16 = _BY_NAME["bfloat16"]
float32 = _BY_NAME["float32"]
float64 = _BY_NAME["float64"]
double = float64
complex64 = _BY_NAME["complex64"]
complex128 = _BY_NAME["complex128"]
string = _BY_NAME["string"]


def as_dtype(value):
    """Converts a DType, a NumPy dtype or type, or a name like ``"float32"`` to a `DType`.

    Raises:
        TypeError: ``value`` names no dtype companion knows.
    """
    if isinstance(value, DType):
        return value
    if isinstance(value, np.dtype):  # the common case (a tensor's dtype): one dict lookup
        found = _BY_NP.get(value)
        if found is not None:
            return found
    if isinstance(value, str):
        found = _BY_NAME.get(_ALIASES.get(value, value))
        if found is not None:
            return found
    elif value in (str, bytes, object):
        return string
    else:
        try:
            found = _BY_NP.get(np.dtype(value))
        except TypeError:
            found = None
        if found is not None:
            return found
        if getattr(value, "dtype", None) is not None and not isinstance(value, type):
            return as_dtype(value.dtype)
    known = ", ".join(sorted(_BY_NAME))
    raise TypeError(f"Cannot convert {value!r} to a companion dtype. Expected one of: {known}.")


def numpy_dtype(dtype):
    """The NumPy dtype that stores values of ``dtype``."""
    return as_dtype(dtype)._np


def kernel_name(dtype):
    """TF's name of a dtype in kernel messages (``float``, ``half``, ``double``; others as named)."""
    name = dtype if isinstance(dtype, str) else as_dtype(dtype).name
    return _KERNEL_NAMES.get(name, name)


_KERNEL_NAMES = {"float32": "float", "float16": "half", "float64": "double"}
