"""More of `RaggedTensor`'s API: the nested and uniform factories, sparse conversions, ``merge_dims``.

They are attached to the class below (as `_operators` attaches the Python operators), so the class's
own file stays about the layout.
"""

import numpy as np

from companion._core._convert import as_input
from companion._core._errors import InvalidArgumentError
from companion._core._tensor import Tensor
from companion._ops._array import reshape
from companion.ragged._ragged_tensor import RaggedTensor, _nvals


def from_nested_row_splits(cls, flat_values, nested_row_splits, name=None, validate=True):
    """Nested rows: ``nested_row_splits[0]`` cuts the outermost dimension, the last one the flat values."""
    return _nested(flat_values, nested_row_splits, "nested_row_splits", cls.from_row_splits, validate)


def from_nested_row_lengths(cls, flat_values, nested_row_lengths, name=None, validate=True):
    """Nested rows from row lengths, outermost first."""
    return _nested(flat_values, nested_row_lengths, "nested_row_lengths", cls.from_row_lengths, validate)


def from_nested_value_rowids(cls, flat_values, nested_value_rowids, nested_nrows=None, name=None,
                             validate=True):
    """Nested rows from value row ids (and optional row counts), outermost first."""
    if isinstance(nested_value_rowids, Tensor) or not isinstance(nested_value_rowids, (list, tuple)):
        raise TypeError("nested_value_rowids must be a list of Tensors. Received: "
                        f"{nested_value_rowids!r}")
    nrows = [None] * len(nested_value_rowids) if nested_nrows is None else list(nested_nrows)
    if len(nrows) != len(nested_value_rowids):
        raise ValueError(f"nested_nrows must have the same length as nested_value_rowids "
                         f"({len(nrows)} vs {len(nested_value_rowids)}).")
    result = flat_values
    for rowids, count in reversed(list(zip(nested_value_rowids, nrows))):
        result = cls.from_value_rowids(result, rowids, count, validate=validate)
    return result


def from_uniform_row_length(cls, values, uniform_row_length, nrows=None, validate=True, name=None):
    """Rows of ``uniform_row_length`` values each: a uniform dimension (its size shows in the shape)."""
    width = int(np.asarray(getattr(uniform_row_length, "_value", uniform_row_length)))
    nvals = _nvals(values if isinstance(values, RaggedTensor) else as_input(values))
    if width < 0:
        raise InvalidArgumentError(f"uniform_row_length must be >= 0. Received: {width}")
    if nrows is None:
        count = nvals // width if width else 0
    else:
        count = int(np.asarray(getattr(nrows, "_value", nrows)))
    if validate and count * width != nvals:
        raise InvalidArgumentError(f"uniform_row_length={width} times nrows={count} must equal the number of "
                                   f"values ({nvals}).")
    out = cls.from_row_splits(values, np.arange(count + 1, dtype=np.int64) * width, validate=False)
    out._uniform_row_length = width
    return out


def from_row_starts(cls, values, row_starts, name=None, validate=True):
    """Rows starting at ``row_starts`` (the last one runs to the end of ``values``)."""
    starts = np.asarray(getattr(row_starts, "_value", row_starts), np.int64).reshape(-1)
    nvals = _nvals(values if isinstance(values, RaggedTensor) else as_input(values))
    splits = np.concatenate([starts, [nvals]]).astype(_index_np(row_starts))
    return cls.from_row_splits(values, splits, validate=validate)


def from_row_limits(cls, values, row_limits, name=None, validate=True):
    """Rows ending at ``row_limits`` (the first one starts at 0)."""
    limits = np.asarray(getattr(row_limits, "_value", row_limits), np.int64).reshape(-1)
    return cls.from_row_splits(values, np.concatenate([[0], limits]).astype(_index_np(row_limits)),
                               validate=validate)


def _index_np(given):
    return np.int32 if str(getattr(getattr(given, "dtype", None), "name", "")) == "int32" else np.int64


def nested_row_lengths(self, name=None):
    """The row lengths of every ragged level, outermost first."""
    out, node = [], self
    while isinstance(node, RaggedTensor):
        out.append(node.row_lengths())
        node = node._values
    return tuple(out)


def nested_value_rowids(self, name=None):
    """The value row ids of every ragged level, outermost first."""
    out, node = [], self
    while isinstance(node, RaggedTensor):
        out.append(node.value_rowids())
        node = node._values
    return tuple(out)


def uniform_row_length(self):
    """The length of every row when the ragged dimension is uniform (a scalar tensor), else None."""
    if self._uniform_row_length is None:
        return None
    return self._index_tensor(np.int64(self._uniform_row_length))


def to_sparse(self, name=None):
    """A `SparseTensor` of the values: indices are (row, position, ...) for every value."""
    # deferred: companion.sparse is a package above ragged's dependencies
    from companion.sparse import SparseTensor

    if self.flat_values.shape.rank != 1:
        raise NotImplementedError("companion's RaggedTensor.to_sparse takes flat values of rank 1.")
    coords = []
    ids = np.arange(int(_nested_splits(self)[-1][-1]), dtype=np.int64)
    for splits in reversed(_nested_splits(self)):
        rows = np.repeat(np.arange(len(splits) - 1, dtype=np.int64), np.diff(splits))[ids]
        coords.append(ids - splits[rows])
        ids = rows
    coords.append(ids)
    indices = np.stack(coords[::-1], axis=1) if coords[0].size else np.zeros((0, len(coords)), np.int64)
    return SparseTensor(Tensor(indices), self.flat_values, self.bounding_shape().numpy().astype(np.int64))


def from_sparse(cls, st_input, name=None, row_splits_dtype="int64"):
    """The rows of a 2-D `SparseTensor` whose indices are in row-major order."""
    indices = np.asarray(st_input.indices.numpy(), np.int64)
    shape = np.asarray(st_input.dense_shape.numpy(), np.int64)
    if shape.size != 2:
        raise ValueError(f"from_sparse needs a SparseTensor of rank 2. Received dense_shape "
                         f"{shape.tolist()}.")
    rows, cols = indices[:, 0], indices[:, 1]
    lengths = np.bincount(rows, minlength=int(shape[0])).astype(np.int64)
    starts = np.concatenate([[0], np.cumsum(lengths)[:-1]]).astype(np.int64)
    if (np.diff(rows) < 0).any() or (cols != np.arange(len(cols)) - starts[rows]).any():
        raise InvalidArgumentError("from_sparse needs indices in row-major order with no gaps in a row "
                                   f"(each row's columns 0, 1, ...). Received indices {indices.tolist()}.")
    return cls.from_row_lengths(st_input.values, lengths).with_row_splits_dtype(row_splits_dtype)


def merge_dims(self, outer_axis, inner_axis):
    """Dimensions ``outer_axis..inner_axis`` joined into one (a Tensor when every ragged one goes).

    Example:
        >>> import companion as tf
        >>> print(tf.ragged.constant([[[1, 2], [3]], [[4, 5, 6]]]).merge_dims(1, 2))
        <companion.RaggedTensor [[1, 2, 3], [4, 5, 6]]>
    """
    rank = self.shape.rank
    outer, inner = outer_axis % rank, inner_axis % rank
    if outer > inner:
        raise ValueError(f"Expected outer_axis ({outer_axis}) to be less than or equal to inner_axis "
                         f"({inner_axis}).")
    return _merge(self, outer, inner)


def _merge(node, outer, inner):
    if outer == inner:
        return node
    if not isinstance(node, RaggedTensor):
        shape = node.shape.as_list()
        return reshape(node, shape[:outer] + [-1] + shape[inner + 1:])
    if outer == 0:  # the rows at depth ``inner`` (or the flat values, further merged) become the rows
        depth = min(inner, node.ragged_rank)
        for _ in range(depth):
            node = node._values
        return _merge(node, 0, inner - depth)
    if outer > 1:
        return RaggedTensor(_merge(node._values, outer - 1, inner - 1), node._splits, internal=True,
                            splits_dtype=node._splits_dtype)
    splits = _pushed_down(node._splits, node._values, inner - 1)
    return RaggedTensor(_merge(node._values, 0, inner - 1), splits, internal=True,
                        splits_dtype=node._splits_dtype)


def _pushed_down(splits, node, levels):
    """Row boundaries ``splits`` (into ``node``'s rows) as boundaries ``levels`` dimensions further in."""
    for _ in range(levels):
        if isinstance(node, RaggedTensor):
            splits, node = node._splits[splits], node._values
        else:
            shape = node.shape.as_list()
            splits, node = splits * shape[1], reshape(node, [-1, *shape[2:]])
    return splits


def _nested_splits(rt):
    out, node = [], rt
    while isinstance(node, RaggedTensor):
        out.append(node._splits)
        node = node._values
    return out


for _factory in (from_nested_row_splits, from_nested_row_lengths, from_nested_value_rowids,
                 from_uniform_row_length, from_sparse, from_row_starts, from_row_limits):
    setattr(RaggedTensor, _factory.__name__, classmethod(_factory))
RaggedTensor.to_sparse = to_sparse
RaggedTensor.merge_dims = merge_dims
RaggedTensor.nested_row_lengths = nested_row_lengths
RaggedTensor.nested_value_rowids = nested_value_rowids
RaggedTensor.uniform_row_length = property(uniform_row_length)


def _nested(flat_values, nested, what, factory, validate):
    if isinstance(nested, Tensor) or not isinstance(nested, (list, tuple)):
        raise TypeError(f"{what} must be a list of Tensors. Received: {nested!r}")
    result = flat_values
    for part in reversed(list(nested)):
        result = factory(result, part, validate=validate)
    return result
