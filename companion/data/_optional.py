"""`Optional` (``tf.experimental.Optional``): a value that may be missing (e.g. an iterator's next element).

``Iterator.get_next_as_optional()`` returns one instead of raising at the end of the data:
``has_value()`` says whether an element came, ``get_value()`` returns it (an
`InvalidArgumentError` when there is none, as in TensorFlow). An empty optional still knows
the structure of the value it would hold (its ``element_spec``).
"""

from companion._core._convert import constant
from companion._core._errors import InvalidArgumentError
from companion.data import _spec, _structure, _values


class Optional:
    """A value that may be absent, with the spec of the value it holds (``tf.experimental.Optional``).

    Create one with `Optional.from_value` or `Optional.empty`, or get one from
    ``Iterator.get_next_as_optional()``.

    Example:
        >>> import companion as tf
        >>> it = iter(tf.data.Dataset.range(1))
        >>> first, second = it.get_next_as_optional(), it.get_next_as_optional()
        >>> bool(first.has_value()), int(first.get_value()), bool(second.has_value())
        (True, 0, False)
        >>> second.element_spec
        TensorSpec(shape=(), dtype=companion.int64, name=None)
    """

    def __init__(self, element, element_spec):
        self._element = element  # a structure of leaves, or None when empty
        self._element_spec = element_spec

    @staticmethod
    def from_value(value):
        """An Optional holding ``value`` (a tensor, or a tuple/dict structure of them).

        Example:
            >>> import companion as tf
            >>> o = tf.experimental.Optional.from_value(42)
            >>> bool(o.has_value()), int(o.get_value())
            (True, 42)
        """
        element = _values.normalize(value)
        return Optional(element, _spec.spec_of(element))

    @staticmethod
    def empty(element_spec):
        """An Optional with no value; ``element_spec`` describes the value it would hold.

        Example:
            >>> import companion as tf
            >>> o = tf.experimental.Optional.empty(tf.TensorSpec(shape=[], dtype=tf.int32))
            >>> bool(o.has_value())
            False
        """
        for leaf in _structure.flatten(element_spec):
            if not isinstance(leaf, (_spec.TensorSpec, _spec.DatasetSpec)):
                raise TypeError("Optional.empty expects a structure of companion.TensorSpec describing the "
                                f"value. Received a leaf {leaf!r}.")
        return Optional(None, element_spec)

    @property
    def element_spec(self):
        """The structure of `TensorSpec`s of the value (also when the Optional is empty)."""
        return self._element_spec

    def has_value(self, name=None):
        """A scalar bool Tensor: True when this Optional holds a value."""
        return constant(self._element is not None)

    def get_value(self, name=None):
        """The value, as Tensors in its structure.

        Raises:
            InvalidArgumentError: the Optional is empty (check ``has_value()`` first).
        """
        if self._element is None:
            raise InvalidArgumentError(
                "The given optional does not have a value: get_value() was called on an empty Optional "
                f"(element_spec {self._element_spec!r}). Check has_value() first, e.g. "
                "companion.cond(opt.has_value(), opt.get_value, default_fn).")
        return _structure.map_structure(_values.to_tensor, self._element)

    def __repr__(self):
        state = "with a value" if self._element is not None else "empty"
        return f"<companion.experimental.Optional {state}, element_spec={self._element_spec!r}>"


class OptionalSpec:
    """The spec of an `Optional` value (``tf.OptionalSpec``): the spec of what it holds.

    Example:
        >>> import companion as tf
        >>> tf.OptionalSpec(tf.TensorSpec([], tf.int32))
        OptionalSpec(TensorSpec(shape=(), dtype=companion.int32, name=None),)
    """

    def __init__(self, element_spec):
        self._element_spec = element_spec

    @property
    def element_spec(self):
        return self._element_spec

    @staticmethod
    def from_value(value):
        """The spec of the Optional ``value``."""
        return OptionalSpec(value.element_spec)

    def __eq__(self, other):
        return isinstance(other, OptionalSpec) and other._element_spec == self._element_spec

    def __hash__(self):
        return hash(repr(self))

    def __repr__(self):
        return f"OptionalSpec({self._element_spec!r},)"
