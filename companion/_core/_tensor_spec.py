"""`TensorSpec`: the shape (``None`` for unknown dimensions) and dtype a tensor must have."""

import jax

from companion._core import _dtypes
from companion._core._convert import convert_to_tensor
from companion._core._shape import TensorShape


class TensorSpec:
    """Describes a tensor: ``shape`` (``None`` dims match any size) and ``dtype``.

    Example:
        >>> import companion as tf
        >>> spec = tf.TensorSpec(shape=[None, 3], dtype=tf.float32)
        >>> spec
        TensorSpec(shape=(None, 3), dtype=companion.float32, name=None)
        >>> spec.is_compatible_with(tf.zeros([5, 3]))
        True
    """

    __slots__ = ("_shape", "_dtype", "_name")

    def __init__(self, shape, dtype=_dtypes.float32, name=None):
        self._shape = TensorShape(shape)
        self._dtype = _dtypes.as_dtype(dtype)
        self._name = name

    @classmethod
    def from_tensor(cls, tensor, name=None):
        return cls(tensor.shape, tensor.dtype, name)

    @property
    def shape(self):
        return self._shape

    @property
    def dtype(self):
        return self._dtype

    @property
    def name(self):
        return self._name

    def is_compatible_with(self, other):
        """True if ``other`` (a tensor or spec) has this dtype and a compatible shape."""
        return other.dtype == self._dtype and self._shape.is_compatible_with(other.shape)

    def __eq__(self, other):
        return (isinstance(other, TensorSpec) and self._shape == other._shape
                and self._dtype == other._dtype and self._name == other._name)

    def __hash__(self):
        return hash((self._shape, self._dtype, self._name))

    def __repr__(self):
        return f"TensorSpec(shape={self._shape}, dtype={self._dtype!r}, name={self._name!r})"

    def _abstract(self):
        """A ``jax.ShapeDtypeStruct``; needs every dimension known."""
        if not self._shape.is_fully_defined():
            raise ValueError(f"Cannot trace with {self!r}: its shape has unknown dimensions. JAX "
                             "compiles for concrete shapes; call the function with a tensor instead.")
        return jax.ShapeDtypeStruct(tuple(self._shape), self._dtype._np)


def check_signature(name, signature, args, kwargs):
    """Converts ``args`` to tensors matching ``signature``, or explains the mismatch.

    Raises:
        TypeError: wrong number of arguments, keyword arguments, or an incompatible value.
    """

    if kwargs or len(args) != len(signature):
        raise TypeError(f"{name} has input_signature {list(signature)} and takes exactly "
                        f"{len(signature)} positional argument(s). Received {len(args)} positional "
                        f"and {len(kwargs)} keyword argument(s).")
    converted = []
    for i, (spec, arg) in enumerate(zip(signature, args)):
        tensor = arg if isinstance(arg, TensorSpec) else _convert(arg, spec, convert_to_tensor)
        if tensor is None or not spec.is_compatible_with(tensor):
            got = f"shape={tensor.shape}, dtype={tensor.dtype.name}" if tensor is not None else repr(arg)
            raise TypeError(f"{name}: argument {i} is incompatible with the input_signature: expected "
                            f"{spec!r}, received a value with {got}. Pass a tensor of that dtype and a "
                            "shape that matches (None dimensions match any size).")
        converted.append(tensor)
    return tuple(converted)


def _convert(arg, spec, convert_to_tensor):
    try:
        return convert_to_tensor(arg, dtype=spec.dtype)
    except (TypeError, ValueError):
        try:
            return convert_to_tensor(arg)
        except (TypeError, ValueError):
            return None
