"""`TensorShape`: a tensor's shape, with unknown (``None``) dimensions for signatures."""


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
            self._dims = (_dim(dims),)
        else:
            self._dims = tuple(_dim(d) for d in dims)

    @property
    def rank(self):
        return None if self._dims is None else len(self._dims)

    ndims = rank

    @property
    def dims(self):
        return None if self._dims is None else list(self._dims)

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

    def __len__(self):
        if self._dims is None:
            raise ValueError("Cannot take the length of a shape with unknown rank.")
        return len(self._dims)

    def __iter__(self):
        if self._dims is None:
            raise ValueError("Cannot iterate over a shape with unknown rank.")
        return iter(self._dims)

    def __getitem__(self, key):
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
        return TensorShape(self._dims + TensorShape(other)._dims)

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


def _dim(d):
    if d is None:
        return None
    if hasattr(d, "__index__"):
        value = d.__index__()
        if value >= 0:
            return value
    raise TypeError(f"A shape dimension must be a non-negative int or None. Received: {d!r}")
