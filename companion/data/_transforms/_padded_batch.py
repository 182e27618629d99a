"""`padded_batch`: batches of elements padded to a common (or given) shape."""

import numpy as np

from companion._core._errors import InvalidArgumentError
from companion._core._shape import TensorShape
from companion.data import _spec, _structure, _values
from companion.data._node import Node, wrap
from companion.data._transforms._batch import _groups, _size, batched_cardinality


class PaddedBatchMethods:
    """`Dataset.padded_batch`."""

    def padded_batch(self, batch_size, padded_shapes=None, padding_values=None, drop_remainder=False,
                     name=None):
        """Like `batch`, but pads every component to a common shape first.

        Args:
            batch_size: elements per batch.
            padded_shapes: per component, the shape to pad to; ``None``/-1 dimensions (and the
                default) pad to the longest element of each batch.
            padding_values: per component (or one for all), the value to pad with (default 0,
                or ``b''`` for strings).
            drop_remainder: drop a last, smaller batch.
            name: accepted for TensorFlow compatibility; unused.

        Example:
            >>> import companion as tf
            >>> ds = tf.data.Dataset.range(1, 5).map(lambda x: tf.fill([x], x))
            >>> [b.numpy().tolist() for b in ds.padded_batch(2)]
            [[[1, 0], [2, 2]], [[3, 3, 3, 0], [4, 4, 4, 4]]]
            >>> [b.numpy().tolist() for b in ds.padded_batch(2, padded_shapes=5, padding_values=-1)][0]
            [[1, -1, -1, -1, -1], [2, 2, -1, -1, -1]]
        """
        spec = self._node.spec
        for leaf in _structure.flatten(spec):
            if not isinstance(leaf, _spec.TensorSpec):
                raise TypeError("`padded_batch` is only supported for datasets that produce tensor elements "
                                "but type spec of elements in the input dataset is not a subclass of "
                                f"TensorSpec: `{leaf!r}`.")
        shapes = _padded_shapes(spec, padded_shapes)
        values = _padding_values(spec, padding_values)
        return wrap(PaddedBatchNode(self._node, _size(batch_size, "batch_size"), shapes, values,
                                    bool(drop_remainder)))


class PaddedBatchNode(Node):
    kind = "_PaddedBatchDataset"

    def __init__(self, node, size, shapes, values, drop_remainder):
        super().__init__(node)
        self._size, self._shapes, self._values, self._drop = size, shapes, values, drop_remainder

    def _compute_spec(self):
        padded = _structure.map_structure(lambda s, shape: _spec.TensorSpec(shape, s.dtype),
                                          self.inputs[0].spec, self._shapes)
        return _spec.with_leading(padded, self._size if self._drop else None)

    def cardinality(self):
        return batched_cardinality(self.inputs[0].cardinality(), self._size, self._drop)

    def _iterate(self, ctx):
        for group in _groups(self.inputs[0].iterate(ctx), self._size, self._drop):
            flat = [_structure.flatten(element) for element in group]
            shapes, values = _structure.flatten(self._shapes), _structure.flatten(self._values)
            leaves = [_pad_stack(parts, shapes[k], values[k], k) for k, parts in enumerate(zip(*flat))]
            yield _structure.pack(group[0], leaves)


def _pad_stack(parts, shape, value, component):
    arrays = [_values.as_host(p) for p in parts]
    ranks = {a.ndim for a in arrays}
    if len(ranks) != 1 or len(shape) != arrays[0].ndim:
        raise InvalidArgumentError(f"padded_batch: component {component} has ranks {sorted(ranks)} but "
                                   f"padded shape {shape} was asked for. Elements must share a rank.")
    target = [d if d is not None else max(a.shape[i] for a in arrays) for i, d in enumerate(shape)]
    out = np.full((len(arrays), *target), value, dtype=arrays[0].dtype)
    for i, array in enumerate(arrays):
        if any(n > t for n, t in zip(array.shape, target)):
            raise InvalidArgumentError(
                f"Attempted to pad to a smaller size than the input element: component {component} of "
                f"element {i} in the batch has shape {list(array.shape)}, the padded shape is {target}. "
                "Give larger padded_shapes (or None to pad to the longest).")
        out[(i, *[slice(0, n) for n in array.shape])] = array
    return out


def _padded_shapes(spec, padded_shapes):
    if padded_shapes is None:
        def longest(s):
            if s.shape.rank is None:
                raise ValueError(f"padded_batch needs padded_shapes for components of unknown rank "
                                 f"({s!r}). Pass padded_shapes explicitly.")
            return TensorShape([None] * s.shape.rank)
        return _structure.map_structure(longest, spec)
    if not _structure.is_structure(spec):
        return _as_shape(padded_shapes, spec)
    if not _structure.same_structure(spec, padded_shapes):
        raise ValueError(f"padded_batch: padded_shapes {padded_shapes!r} must have the structure of the "
                         f"elements {spec!r}.")
    return _structure.map_structure(lambda s, p: _as_shape(p, s), spec, _shape_leaves(padded_shapes, spec))


def _shape_leaves(shapes, spec):
    """Shapes are lists (leaves): rebuild ``shapes`` so it nests exactly like ``spec``."""
    if isinstance(spec, dict):
        return type(spec)((k, _shape_leaves(shapes[k], spec[k])) for k in spec)
    if isinstance(spec, tuple):
        return tuple(_shape_leaves(sh, sp) for sh, sp in zip(shapes, spec))
    return _Leaf(shapes)


class _Leaf:
    def __init__(self, value):
        self.value = value


def _as_shape(value, spec):
    value = value.value if isinstance(value, _Leaf) else value
    if value is None:
        dims = [None] * (spec.shape.rank or 0)
    elif isinstance(value, int):
        dims = [None if value == -1 else value]
    else:
        dims = [None if d is None or int(d) == -1 else int(d) for d in value]
    shape = TensorShape(dims)
    if spec.shape.rank is not None and len(shape) != spec.shape.rank:
        raise ValueError(f"padded_batch: padded shape {shape} has rank {len(shape)} but the component "
                         f"{spec!r} has rank {spec.shape.rank}.")
    return shape


def _padding_values(spec, padding_values):
    def default(s):
        return b"" if s.dtype.name == "string" else 0
    if padding_values is None:
        return _structure.map_structure(default, spec)
    if not _structure.is_structure(padding_values):
        return _structure.map_structure(lambda s: _pad_value(padding_values), spec)
    if not _structure.same_structure(spec, padding_values):
        raise ValueError(f"padded_batch: padding_values {padding_values!r} must have the structure of "
                         f"the elements {spec!r}, or be a single value.")
    return _structure.map_structure(lambda s, v: default(s) if v is None else _values.to_numpy_value(
        _values.to_leaf(v)), spec, padding_values)


def _pad_value(value):
    """A padding value as the elements hold it: Python text as bytes, as TF's string tensors."""
    return value.encode("utf-8") if isinstance(value, str) else value
