"""`TensorShape`: a tensor's shape, with unknown (``None``) dimensions for signatures."""

from companion._core._dimension import Dimension, dimension_of


class TensorShape:
    """The shape of a tensor: a tuple of dimensions, each an int or ``None`` (unknown).

    Compares equal to tuples and lists with the same dimensions.

    Example:
        >>> import companion as tf
        >>> s = tf.zeros((2, 3)).shape
        >>> s, s.as_list(), s.rank, s == (2, 3)
        (TensorShape([2, 3]), [2, 3], 2, True)
    """

    __slots__ = ("_dims",)

    def __init__(self, dims):
        if type(dims) is tuple and all(type(d) is int and d >= 0 for d in dims):  # an array's shape
            self._dims = dims
        elif isinstance(dims, TensorShape):
            self._dims = dims._dims
        elif dims is None:
            self._dims = None
        elif isinstance(dims, int):
            self._dims = (dimension_of(dims),)
        else:
            self._dims = tuple(dimension_of(d) for d in dims)

    @property
    def rank(self):
        return None if self._dims is None else len(self._dims)

    ndims = rank

    @property
    def dims(self):
        """The dimensions as TF 1's `Dimension` objects (None for an unknown rank); indexing the
        shape gives plain ints."""
        return None if self._dims is None else [Dimension(d) for d in self._dims]

    def as_list(self):
        if self._dims is None:
            raise ValueError("as_list() is not defined on an unknown TensorShape.")
        return list(self._dims)

    def is_fully_defined(self):
        return self._dims is not None and all(d is not None for d in self._dims)

    def num_elements(self):
        if not self.is_fully_defined():
            return None
        count = 1
        for d in self._dims:
            count *= d
        return count

    def is_compatible_with(self, other):
        other = TensorShape(other)
        if self._dims is None or other._dims is None:
            return True
        if len(self._dims) != len(other._dims):
            return False
        return all(a is None or b is None or a == b for a, b in zip(self._dims, other._dims))

    def assert_is_compatible_with(self, other):
        """ValueError unless `is_compatible_with` ``other``."""
        if not self.is_compatible_with(other):
            raise ValueError(f"Shapes {self} and {other} are incompatible")

    def merge_with(self, other):
        """The shape both describe: each known dimension of either (ValueError if they differ)."""
        other = TensorShape(other)
        if self._dims is None:
            return other
        if other._dims is None:
            return self
        if not self.is_compatible_with(other):
            raise ValueError(f"Shapes {self} and {other} are not compatible")
        return TensorShape([b if a is None else a for a, b in zip(self._dims, other._dims)])

    def most_specific_compatible_shape(self, other):
        """The most specific shape compatible with both: their common known dimensions, None
        where they differ (unknown rank if the ranks differ)."""
        other = TensorShape(other)
        if self._dims is None or other._dims is None or len(self._dims) != len(other._dims):
            return TensorShape(None)
        return TensorShape([a if a == b else None for a, b in zip(self._dims, other._dims)])

    def is_subtype_of(self, other):
        """Whether every shape this one describes is one ``other`` describes (tf.types' rule)."""
        if not isinstance(other, TensorShape):
            return False
        if other._dims is None:
            return True
        if self._dims is None or len(self._dims) != len(other._dims):
            return False
        return all(b is None or a == b for a, b in zip(self._dims, other._dims))

    def most_specific_common_supertype(self, others):
        """The most specific shape that ``self`` and every shape of ``others`` are subtypes of
        (None if one of them is not a TensorShape)."""
        if not all(isinstance(other, TensorShape) for other in others):
            return None
        common = self
        for other in others:
            common = common.most_specific_compatible_shape(other)
        return common

    def concatenate(self, other):
        """The dimensions of ``self`` then those of ``other`` (unknown rank if either is)."""
        other = TensorShape(other)
        if self._dims is None or other._dims is None:
            return TensorShape(None)
        return TensorShape(self._dims + other._dims)

    def with_rank(self, rank):
        """This shape if it can have rank ``rank`` (an unknown one gets ``rank`` unknown dimensions)."""
        try:
            return self.merge_with(TensorShape([None] * rank))
        except ValueError:
            raise ValueError(f"Shape {self} must have rank {rank}") from None

    def with_rank_at_least(self, rank):
        if self._dims is not None and len(self._dims) < rank:
            raise ValueError(f"Shape {self} must have rank at least {rank}")
        return self

    def with_rank_at_most(self, rank):
        if self._dims is not None and len(self._dims) > rank:
            raise ValueError(f"Shape {self} must have rank at most {rank}")
        return self

    def assert_has_rank(self, rank):
        if self._dims is not None and len(self._dims) != rank:
            raise ValueError(f"Shape {self} must have rank {rank}")

    def assert_same_rank(self, other):
        other = TensorShape(other)
        if self._dims is not None and other._dims is not None and len(self._dims) != len(other._dims):
            raise ValueError(f"Shapes {self} and {other} must have the same rank")

    def assert_is_fully_defined(self):
        if not self.is_fully_defined():
            raise ValueError(f"Shape {self} is not fully defined")

    def __len__(self):
        if self._dims is None:
            raise ValueError("Cannot take the length of shape with unknown rank.")
        return len(self._dims)

    def __bool__(self):
        return self._dims is not None

    def __iter__(self):
        if self._dims is None:
            raise ValueError("Cannot iterate over a shape with unknown rank.")
        return iter(self._dims)

    def __getitem__(self, key):
        if self._dims is None:  # any dimension of an unknown shape is unknown
            if isinstance(key, slice):
                return TensorShape(None)
            key.__index__()
            return None
        if isinstance(key, slice):
            return TensorShape(self._dims[key])
        return self._dims[key]

    def __eq__(self, other):
        try:
            other = TensorShape(other)
        except (TypeError, ValueError):
            return NotImplemented
        return self._dims == other._dims

    def __ne__(self, other):
        result = self.__eq__(other)
        return result if result is NotImplemented else not result

    def __hash__(self):
        return hash(self._dims)

    def __add__(self, other):
        return self.concatenate(other)

    def __radd__(self, other):
        return TensorShape(other).concatenate(self)

    def __repr__(self):
        if self._dims is None:
            return "TensorShape(None)"
        return f"TensorShape({list(self._dims)})"

    def __str__(self):
        if self._dims is None:
            return "<unknown>"
        if len(self._dims) == 1:
            return f"({self._dims[0]},)"
        return "(" + ", ".join(str(d) for d in self._dims) + ")"


def dimension_at_index(shape, index):
    """``tf.compat.dimension_at_index``: ``shape``'s dimension ``index`` as a `Dimension`
    (``Dimension(None)`` for a shape of unknown rank)."""
    shape = TensorShape(shape)
    return Dimension(None if shape._dims is None else shape._dims[index])
