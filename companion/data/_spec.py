"""Element specs: `TensorSpec` leaves (shape with ``None`` dims, dtype) and `DatasetSpec` for windows."""

from companion._core._shape import TensorShape
from companion._core._tensor_spec import TensorSpec
from companion.data import _ragged, _structure, _values


class DatasetSpec:
    """The spec of an element that is itself a Dataset (the windows of `Dataset.window`).

    Example:
        >>> import companion as tf
        >>> tf.data.Dataset.range(4).window(2).element_spec
        DatasetSpec(TensorSpec(shape=(), dtype=companion.int64, name=None), TensorShape([]))
    """

    def __init__(self, element_spec, dataset_shape=()):
        self.element_spec = element_spec
        self.shape = TensorShape(dataset_shape)

    def __eq__(self, other):
        return isinstance(other, DatasetSpec) and other.element_spec == self.element_spec

    def __hash__(self):
        return hash(repr(self))

    def __repr__(self):
        return f"DatasetSpec({self.element_spec!r}, {self.shape!r})"


def spec_of_leaf(leaf):
    if _values.is_dataset(leaf):
        return DatasetSpec(leaf.element_spec)
    if _ragged.is_ragged(leaf):
        return _ragged.spec_of(leaf)
    return TensorSpec(leaf.shape, _values.leaf_dtype(leaf))


def spec_of(element):
    """The spec structure describing one element (a structure of leaves)."""
    return _structure.map_structure(spec_of_leaf, element)


def with_leading(spec, dim):
    """Every TensorSpec of ``spec`` with a new first dimension ``dim`` (an int or None)."""
    return _structure.map_structure(lambda s: _leaf_with_leading(s, dim), spec)


def without_leading(spec, what):
    """Every TensorSpec of ``spec`` minus its first dimension (for unbatch/from_tensor_slices)."""
    def drop(s):
        if _ragged.is_ragged_spec(s):
            return _ragged.row_spec(s)
        if s.shape.rank == 0:
            raise ValueError(f"{what} needs every component to have rank >= 1 (a first dimension to "
                             f"split). Received a component of spec {s!r}.")
        return TensorSpec(None if s.shape.rank is None else s.shape[1:], s.dtype)
    return _structure.map_structure(drop, spec)


def most_specific(a, b, what):
    """The spec that both ``a`` and ``b`` fit (differing dimensions become None).

    Raises:
        TypeError: the structures or dtypes differ.
    """
    if not _structure.same_structure(a, b):
        raise TypeError(f"{what}: the two element structures differ: {a!r} and {b!r}. Make both "
                        "datasets yield the same structure (e.g. with a map).")

    def join(x, y):
        if isinstance(x, DatasetSpec) or isinstance(y, DatasetSpec):
            return x
        if _ragged.is_ragged_spec(x) or _ragged.is_ragged_spec(y):
            joined = _ragged.join(x, y, join_shapes)
            if joined is None:
                raise TypeError(f"{what}: incompatible element specs {a!r} and {b!r} (ragged and dense, "
                                "or ragged of different dtypes or ragged ranks).")
            return joined
        if x.dtype != y.dtype:
            raise TypeError(f"{what}: incompatible dtypes {x.dtype.name} and {y.dtype.name} in the "
                            f"element specs {a!r} and {b!r}. Cast one of them in a map first.")
        return TensorSpec(join_shapes(x.shape, y.shape), x.dtype)
    return _structure.map_structure(join, a, b)


def join_shapes(a, b):
    """The most specific shape compatible with both ``a`` and ``b``."""
    if a.rank is None or b.rank is None or a.rank != b.rank:
        return TensorShape(None)
    return TensorShape([x if x == y else None for x, y in zip(a, b)])


def relax(spec, observed):
    """``spec`` with the dims of ``observed`` (another spec) that differ from it set to None."""
    return most_specific(spec, observed, "relax")


def _leaf_with_leading(s, dim):
    if isinstance(s, DatasetSpec):
        raise TypeError("Cannot batch an element that is a Dataset (a window). Batch inside the "
                        "window instead: ds.window(n).flat_map(lambda w: w.batch(n)).")
    if _ragged.is_ragged_spec(s):
        return _ragged.with_leading(s, dim)
    return TensorSpec(TensorShape(None) if s.shape.rank is None else TensorShape([dim]) + s.shape, s.dtype)
