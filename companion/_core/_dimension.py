"""`Dimension`: one dimension of a `TensorShape` as TF 1 saw it (``tf.compat.v1.Dimension``).

TF 2 indexes a shape to plain ints (``shape[0]`` is ``2`` or ``None``), but ``shape.dims`` still
lists `Dimension` objects, which print as ``Dimension(2)``; ``tf.compat.dimension_value`` turns
either kind into an int or None. An unknown dimension (``Dimension(None)``) propagates through
arithmetic, and a comparison with it is None (neither true nor false).
"""

import operator


class Dimension:
    """A shape dimension: a non-negative int, or None when unknown.

    Example:
        >>> import companion as tf
        >>> d = tf.compat.v1.Dimension(3)
        >>> d + 1, d.value, d == 3, tf.compat.v1.Dimension(None) + d
        (Dimension(4), 3, True, Dimension(None))
    """

    __slots__ = ("_value",)
    __hash__ = None  # TF's Dimension is unhashable (== with an unknown one is None, not a bool)

    def __init__(self, value):
        self._value = dimension_of(value)

    @property
    def value(self):
        return self._value

    def __repr__(self):
        return f"Dimension({self._value})"

    def __str__(self):
        return "?" if self._value is None else str(self._value)

    def __int__(self):
        return self._value

    def __index__(self):
        return self._value

    def __float__(self):
        return float(self._value)

    def __bool__(self):
        return bool(self._value)

    def is_compatible_with(self, other):
        other = as_dimension(other)
        return self._value is None or other._value is None or self._value == other._value

    def assert_is_compatible_with(self, other):
        if not self.is_compatible_with(other):
            raise ValueError(f"Dimensions {self} and {as_dimension(other)} are not compatible")

    def merge_with(self, other):
        """The known one of two compatible dimensions; ValueError if they differ."""
        other = as_dimension(other)
        self.assert_is_compatible_with(other)
        return Dimension(other._value if self._value is None else self._value)

    def _binary(self, other, fn, reverse=False):
        try:
            other = as_dimension(other)
        except (TypeError, ValueError):
            return NotImplemented
        if self._value is None or other._value is None:
            return None if fn in _COMPARISONS else Dimension(None)
        a, b = (other._value, self._value) if reverse else (self._value, other._value)
        result = fn(a, b)
        return result if fn in _COMPARISONS else Dimension(result)

    def __eq__(self, other):
        return self._binary(other, operator.eq)

    def __ne__(self, other):
        return self._binary(other, operator.ne)

    def __lt__(self, other):
        return self._binary(other, operator.lt)

    def __le__(self, other):
        return self._binary(other, operator.le)

    def __gt__(self, other):
        return self._binary(other, operator.gt)

    def __ge__(self, other):
        return self._binary(other, operator.ge)

    def __add__(self, other):
        return self._binary(other, operator.add)

    def __radd__(self, other):
        return self._binary(other, operator.add, reverse=True)

    def __sub__(self, other):
        return self._binary(other, operator.sub)

    def __rsub__(self, other):
        return self._binary(other, operator.sub, reverse=True)

    def __mul__(self, other):
        return self._binary(other, operator.mul)

    def __rmul__(self, other):
        return self._binary(other, operator.mul, reverse=True)

    def __floordiv__(self, other):
        return self._binary(other, operator.floordiv)

    def __rfloordiv__(self, other):
        return self._binary(other, operator.floordiv, reverse=True)

    def __mod__(self, other):
        return self._binary(other, operator.mod)

    def __rmod__(self, other):
        return self._binary(other, operator.mod, reverse=True)

    def __truediv__(self, other):
        raise TypeError(f"unsupported operand type(s) for /: 'Dimension' and '{type(other).__name__}', "
                        "please use // instead")


_COMPARISONS = frozenset({operator.eq, operator.ne, operator.lt, operator.le, operator.gt, operator.ge})


def dimension_of(value):
    """``value`` (an int, None, a `Dimension`, anything with ``__index__``) as an int or None;
    TF's errors for anything else (TypeError) and for a negative size (ValueError)."""
    if value is None:
        return None
    if isinstance(value, Dimension):
        return value._value
    if not hasattr(value, "__index__"):
        raise TypeError(f"Dimension value must be integer or None or have an __index__ method, got value "
                        f"'{value!r}' with type '{type(value)}'")
    index = value.__index__()
    if index < 0:
        raise ValueError(f"Dimension {index} must be >= 0")
    return index


def as_dimension(value):
    return value if isinstance(value, Dimension) else Dimension(value)


def dimension_value(dimension):
    """``tf.compat.dimension_value``: a shape's dimension (an int, None or a `Dimension`) as an
    int or None."""
    return dimension.value if isinstance(dimension, Dimension) else dimension
