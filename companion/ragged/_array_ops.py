"""``concat``, ``stack``, ``expand_dims``, ``tile``, ``gather``, ``reverse``, ``embedding_lookup`` of
RaggedTensors (TF's ragged dispatch).

Dense inputs mixed with ragged ones become RaggedTensors of the same ragged rank (uniform rows).
Row work happens on the host row partitions; the values move with `gather`/`concat` ops, so
tapes see them.
"""

import numpy as np

from companion._core._convert import as_input
from companion._core._errors import InvalidArgumentError
from companion._core._tensor import Tensor
from companion._ops import _array
from companion._ops._select import gather as dense_gather
from companion.ragged._ragged_tensor import RaggedTensor


def concat(values, axis, name=None):
    """Joins RaggedTensors (and dense tensors) along ``axis``; TF's ``tf.concat`` on ragged inputs.

    Example:
        >>> import companion as tf
        >>> print(tf.concat([tf.ragged.constant([[1, 2], [3]]), tf.ragged.constant([[4], [5]])], axis=1))
        <companion.RaggedTensor [[1, 2, 4], [3, 5]]>
    """
    parts = _as_ragged_list(values, "concat")
    rank = parts[0].shape.rank
    axis = _axis(axis, rank, "concat")
    return _concat(parts, axis)


def stack(values, axis=0, name=None):
    """Stacks RaggedTensors (and dense tensors) of one rank along a new ``axis``.

    Example:
        >>> import companion as tf
        >>> print(tf.stack([tf.ragged.constant([[1, 2], [3]]), tf.ragged.constant([[4], [5], [6]])]))
        <companion.RaggedTensor [[[1, 2], [3]], [[4], [5], [6]]]>
    """
    values = list(values)
    if not values:
        raise ValueError("stack needs at least one tensor. Received an empty list.")
    ranks = {_rank(v) for v in values}
    if len(ranks) != 1:
        raise ValueError(f"stack needs tensors of one rank. Received ranks {[_rank(v) for v in values]}.")
    rank = ranks.pop()
    axis = _axis(axis, rank + 1, "stack")
    if axis > 0 and not any(isinstance(v, RaggedTensor) for v in values):  # TF: no ragged dimension to make
        return _array.stack(values, axis)
    if rank == 1 and not any(isinstance(v, RaggedTensor) for v in values):  # each vector becomes a row
        rows = _one_dtype([as_input(v) for v in values])
        lengths = np.asarray([r.shape[0] for r in rows], np.int64)
        return RaggedTensor.from_row_lengths(_array.concat(rows, axis=0), lengths)
    return concat([expand_dims(v, axis) for v in values], axis)


def expand_dims(input, axis, name=None):  # noqa: A002 - TensorFlow's argument name
    """A new dimension of size 1 at ``axis`` (uniform, as TF's ``tf.expand_dims`` on a RaggedTensor)."""
    if not isinstance(input, RaggedTensor):
        return _array.expand_dims(input, axis)
    axis = _axis(axis, input.shape.rank + 1, "expand_dims")
    nrows = input._nrows()
    if axis == 0:
        return _wrap(input, np.asarray([0, nrows]), uniform=nrows)
    if axis == 1:
        return _wrap(input, np.arange(nrows + 1), uniform=1)
    return _rewrap(input, expand_dims(input.values, axis - 1))


def tile(input, multiples, name=None):  # noqa: A002
    """Repeats ``input`` ``multiples[i]`` times along each dimension; a ragged row repeats its own values."""
    reps = [int(m) for m in np.asarray(getattr(multiples, "_value", multiples)).reshape(-1)]
    if len(reps) != input.shape.rank or min(reps, default=0) < 0:
        raise InvalidArgumentError(f"tile: expected multiples to be {input.shape.rank} non-negative ints "
                                   f"(one per dimension of the RaggedTensor of shape {input.shape}). "
                                   f"Received: "
                                   f"multiples={reps}")
    return _tile(input, reps)


def gather(params, indices, validate_indices=None, axis=None, batch_dims=0, name=None):
    """Rows ``indices`` of ragged ``params``, or dense ``params`` looked up with ragged ``indices``."""
    if axis not in (None, 0) or batch_dims != 0:
        raise NotImplementedError("companion gathers RaggedTensors along axis 0 without batch_dims.")
    if isinstance(indices, RaggedTensor):
        if isinstance(params, RaggedTensor):
            raise NotImplementedError("companion does not gather a RaggedTensor with ragged indices.")
        return indices.with_flat_values(dense_gather(params, indices.flat_values))
    index = np.asarray(as_input(indices)._value).astype(np.int64)
    nrows = params._nrows()
    if ((index < -nrows) | (index >= nrows)).any():
        bad = index[(index < -nrows) | (index >= nrows)][0]
        raise InvalidArgumentError(f"indices = {int(bad)} is not in [0, {nrows}) (gather on a RaggedTensor).")
    out = take_rows(params, index.reshape(-1) % max(nrows, 1))
    for size in reversed(index.shape[1:]):
        out = _wrap(out, np.arange(0, out._nrows() + 1, size), uniform=size)
    return out


def embedding_lookup(params, ids, max_norm=None, name=None):
    """The rows of ``params`` for ragged ``ids``: a RaggedTensor with the ids' rows."""
    # deferred: companion._ops._nn_embedding imports the dispatch that leads here
    from companion._ops._nn_embedding import embedding_lookup as dense_lookup

    return ids.with_flat_values(dense_lookup(params, ids.flat_values, max_norm))


def reverse(tensor, axis, name=None):
    """``tensor`` with the order of each listed ``axis`` reversed; a ragged axis reverses each row."""
    rank = tensor.shape.rank
    axes = [int(a) for a in np.asarray(getattr(axis, "_value", axis)).reshape(-1)]
    out = tensor
    for a in sorted({_axis(a, rank, "reverse") for a in axes}):
        out = _reverse(out, a)
    return out


def _reverse(node, axis):
    if not isinstance(node, RaggedTensor):
        return _array.reverse(node, [axis])
    if axis == 0:
        return take_rows(node, np.arange(node._nrows() - 1, -1, -1, dtype=np.int64))
    if axis == 1:
        starts, limits = node._splits[:-1], node._splits[1:]
        flipped = _ranges(starts, limits)
        order = np.concatenate([flipped[a:b][::-1] for a, b in zip(starts.tolist(), limits.tolist())]
                               or [np.zeros(0, np.int64)])
        return _rewrap(node, take_rows(node._values, order.astype(np.int64)))
    return _rewrap(node, _reverse(node._values, axis - 1))


def take_rows(node, rows):
    """The rows ``rows`` (host ints) of a dense tensor or a RaggedTensor, in that order."""
    if not isinstance(node, RaggedTensor):
        return dense_gather(node, Tensor(np.asarray(rows, np.int64)))
    starts, limits = node._splits[:-1][rows], node._splits[1:][rows]
    positions = _ranges(starts, limits)
    splits = np.concatenate([[0], np.cumsum(limits - starts)])
    return _rewrap(node, take_rows(node._values, positions), splits)


# -- the work ---------------------------------------------------------------------------------------

def _concat(parts, axis):
    if not isinstance(parts[0], RaggedTensor):
        return _array.concat(parts, axis=axis)
    if axis == 0:
        offsets = np.cumsum([0] + [p._splits[-1] for p in parts])
        splits = np.concatenate([parts[0]._splits[:1]] + [p._splits[1:] + o for p, o in zip(parts, offsets)])
        return _rewrap(parts[0], _concat([p._values for p in parts], 0), splits)
    counts = [p._nrows() for p in parts]
    if len(set(counts)) != 1:
        raise InvalidArgumentError(f"Input tensors at index 0 (=x) and {counts.index(counts[-1])} (=y) have "
                                   f"incompatible shapes: concat on axis {axis} needs one number of rows. "
                                   f"Received {counts} rows.")
    if axis == 1:
        return _interleave(parts)
    first = parts[0]._splits
    if any(not np.array_equal(p._splits, first) for p in parts):
        raise InvalidArgumentError(f"Input tensors have incompatible shapes: concat on axis {axis} needs the "
                                   "same row lengths in every input's ragged dimension 1.")
    return _rewrap(parts[0], _concat([p._values for p in parts], axis - 1))


def _interleave(parts):
    """Row i of the result holds row i of every input, in input order (concat on axis 1)."""
    offsets = np.cumsum([0] + [p._splits[-1] for p in parts])
    starts = np.stack([p._splits[:-1] + o for p, o in zip(parts, offsets)], axis=1).reshape(-1)
    limits = np.stack([p._splits[1:] + o for p, o in zip(parts, offsets)], axis=1).reshape(-1)
    joined = _concat([p._values for p in parts], 0)
    lengths = (limits - starts).reshape(len(parts[0]._splits) - 1, len(parts)).sum(axis=1)
    splits = np.concatenate([[0], np.cumsum(lengths)])
    return _rewrap(parts[0], take_rows(joined, _ranges(starts, limits)), splits)


def _tile(node, reps):
    if not isinstance(node, RaggedTensor):
        return _array.tile(node, reps)
    inner = _tile(node._values, [1] + reps[2:])
    starts, limits = node._splits[:-1], node._splits[1:]
    order = np.concatenate([np.tile(np.arange(s, e), reps[1]) for s, e in zip(starts, limits)] * reps[0]
                           or [np.zeros(0, np.int64)]).astype(np.int64)
    lengths = np.tile((limits - starts) * reps[1], reps[0])
    return _rewrap(node, take_rows(inner, order), np.concatenate([[0], np.cumsum(lengths)]))


# -- helpers ----------------------------------------------------------------------------------------

def _as_ragged_list(values, what):
    """``values`` as RaggedTensors of one dtype, rank, row-splits dtype and ragged rank."""
    values = list(values)
    if not values:
        raise ValueError(f"{what} needs at least one tensor. Received an empty list.")
    ragged = [v for v in values if isinstance(v, RaggedTensor)]
    ragged = ragged or [_raise_ragged_rank(as_input(values[0]), 1)]
    dtype, splits_dtype = ragged[0].dtype, ragged[0]._splits_dtype
    if any(r._splits_dtype != splits_dtype for r in ragged):
        raise ValueError("Input RaggedTensors have mismatched row_splits dtypes; use "
                         "RaggedTensor.with_row_splits_dtype() to convert them to compatible dtypes.")
    parts = [v if isinstance(v, RaggedTensor) else as_input(v, None if _is_tensor(v) else dtype)
             for v in values]
    for i, p in enumerate(parts):
        if p.dtype != dtype:
            raise InvalidArgumentError(f"{what}: every input must have dtype {dtype.name}, but input {i} has "
                                       f"dtype {p.dtype.name}. Cast it first.")
    ranks = [p.shape.rank for p in parts]
    if len(set(ranks)) != 1:
        raise ValueError(f"{what}: every input must have one rank. Received ranks {ranks}.")
    depth = max(r.ragged_rank for r in ragged)
    return [_raise_ragged_rank(p, depth).with_row_splits_dtype(splits_dtype) for p in parts]


def _raise_ragged_rank(value, depth):
    """``value`` (dense, or ragged of lower ragged rank) as a RaggedTensor of ragged rank ``depth``."""
    if isinstance(value, RaggedTensor):
        if value.ragged_rank >= depth:
            return value
        return _rewrap(value, _raise_ragged_rank(value._values, depth - 1))
    if depth == 0:
        return value
    shape = value.shape.as_list()
    flat = _array.reshape(value, [-1, *shape[depth + 1:]])
    node = flat
    for level in reversed(range(depth)):
        nrows, width = int(np.prod(shape[:level + 1], dtype=np.int64)), shape[level + 1]
        node = _wrap(node, np.arange(nrows + 1) * width, uniform=width if level == 0 else None)
    return node


def _wrap(values, splits, uniform=None):
    """A RaggedTensor of ``values`` cut at ``splits``; ``uniform``: every row has that length."""
    splits_dtype = values._splits_dtype if isinstance(values, RaggedTensor) else None
    out = RaggedTensor(values, np.asarray(splits, np.int64), internal=True, splits_dtype=splits_dtype)
    out._uniform_row_length = uniform
    return out


def _rewrap(like, values, splits=None):
    """``values`` cut as ``like``'s rows (or at ``splits``), keeping its row-splits dtype."""
    splits = like._splits if splits is None else np.asarray(splits, np.int64)
    out = RaggedTensor(values, splits, internal=True, splits_dtype=like._splits_dtype)
    if splits is like._splits:
        out._uniform_row_length = like._uniform_row_length
    return out


def _ranges(starts, limits):
    pieces = [np.arange(s, e, dtype=np.int64) for s, e in zip(starts.tolist(), limits.tolist())]
    return np.concatenate(pieces) if pieces else np.zeros(0, np.int64)


def _axis(axis, rank, what):
    axis = int(getattr(axis, "_value", axis))
    if not -rank <= axis < rank:
        raise ValueError(f"{what}: axis={axis} out of bounds: expected {-rank}<=axis<{rank}.")
    return axis % rank


def _rank(value):
    return value.shape.rank if isinstance(value, RaggedTensor) else as_input(value).shape.rank


def _is_tensor(value):
    return isinstance(value, Tensor) or getattr(value, "_is_variable", False)


def _one_dtype(tensors):
    if len({t.dtype for t in tensors}) != 1:
        raise InvalidArgumentError(f"stack needs tensors of one dtype. Received "
                                   f"{[t.dtype.name for t in tensors]}.")
    return tensors
