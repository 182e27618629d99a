"""`VariableSpec`: what a `companion.function` signature records for a Variable argument.

A traced program takes a Variable argument by its spec, as TensorFlow does: shape, dtype,
trainability and ``alias_id`` (which argument Variables are the same object: ``f(a, b)`` and
``f(a, a)`` are two signatures, ``f(a, b)`` and ``f(c, d)`` one).
"""

from companion._core import _dtypes
from companion._core._shape import TensorShape


class VariableSpec:
    """The signature of a Variable argument: ``VariableSpec(shape=(2,), dtype=tf.float32,
    trainable=True, alias_id=0)``."""

    __slots__ = ("_shape", "_dtype", "_trainable", "_alias_id")

    def __init__(self, shape, dtype=_dtypes.float32, trainable=True, alias_id=None):
        self._shape = TensorShape(shape)
        self._dtype = _dtypes.as_dtype(dtype)
        self._trainable = bool(trainable)
        self._alias_id = alias_id

    @classmethod
    def from_value(cls, variable, alias_id=None):
        return cls(variable.shape, variable.dtype, variable.trainable, alias_id)

    @property
    def shape(self):
        return self._shape

    @property
    def dtype(self):
        return self._dtype

    @property
    def trainable(self):
        return self._trainable

    @property
    def alias_id(self):
        return self._alias_id

    def is_compatible_with(self, other):
        """True if the Variable (or spec) ``other`` fits: its dtype and trainability, a compatible shape."""
        return (getattr(other, "_is_variable", False) or isinstance(other, VariableSpec)) \
            and other.dtype == self._dtype and bool(other.trainable) == self._trainable \
            and self._shape.is_compatible_with(other.shape)

    def _key(self):
        return (self._shape, self._dtype, self._trainable, self._alias_id)

    def __eq__(self, other):
        return isinstance(other, VariableSpec) and self._key() == other._key()

    def __hash__(self):
        return hash(self._key())

    def __repr__(self):
        return (f"VariableSpec(shape={self._shape}, dtype={self._dtype!r}, trainable={self._trainable}, "
                f"alias_id={self._alias_id})")
