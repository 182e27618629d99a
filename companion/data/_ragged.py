"""Ragged components of elements: RaggedTensor leaves, their `RaggedTensorSpec`s, rows and batches.

A component whose spec is a ``RaggedTensorSpec`` of ragged rank 0 (a row of a RaggedTensor,
``from_tensor_slices(ragged)``) is a dense array of varying length inside the pipeline, as TF
yields it; ragged rank 1 or more is a `RaggedTensor` leaf. Batching ragged components (``batch``
of such specs, ``ragged_batch``) concatenates the rows' values and records the row splits.
"""

import numpy as np

from companion._core._shape import TensorShape
from companion._core._tensor_spec import TensorSpec
from companion.data import _structure


def is_ragged(value):
    return getattr(value, "_is_ragged", False)


def is_ragged_spec(spec):
    return getattr(spec, "_is_ragged_spec", False)


def spec_of(ragged):
    """The `RaggedTensorSpec` of a RaggedTensor leaf."""
    return _ragged_spec(ragged.shape, ragged.dtype, ragged.ragged_rank)


def row_spec(spec):
    """The spec of one row of a component of ``spec`` (a `RaggedTensorSpec`)."""
    return _ragged_spec(spec.shape[1:], spec.dtype, spec.ragged_rank - 1)


def with_leading(spec, dim):
    """A batch of ``spec`` (a `RaggedTensorSpec`): one more ragged dimension, in front."""
    return _ragged_spec(TensorShape([dim]) + spec.shape, spec.dtype, spec.ragged_rank + 1)


def join(a, b, join_shapes):
    """The spec both ragged specs ``a`` and ``b`` fit, or None when they cannot meet."""
    if not (is_ragged_spec(a) and is_ragged_spec(b)) or a.dtype != b.dtype or a.ragged_rank != b.ragged_rank:
        return None
    return _ragged_spec(join_shapes(a.shape, b.shape), a.dtype, a.ragged_rank)


def rows(ragged):
    """The rows of a RaggedTensor leaf, as leaves (dense arrays, or RaggedTensors when nested)."""
    return [_leaf(ragged[i]) for i in range(len(ragged))]


def stack(parts):
    """One RaggedTensor leaf from rows (dense arrays of any first size, or RaggedTensors)."""
    # deferred: companion.ragged is a lazy package, loaded when ragged values appear
    from companion.ragged import RaggedTensor

    splits = np.cumsum([0] + [len(part) for part in parts], dtype=np.int64)
    return RaggedTensor.from_row_splits(_concat(parts), splits, validate=False)


def ragged_batch_spec(spec):
    """The element spec ``ragged_batch`` sees: components of partly known shape become ragged."""
    def convert(s):
        if is_ragged_spec(s) or not isinstance(s, TensorSpec) or s.shape.is_fully_defined():
            return s
        if s.shape.rank is None:
            raise ValueError(f"ragged_batch needs components of known rank. Received a component of spec "
                             f"{s!r}; set its shape with ensure_shape in a map first.")
        nones = [i for i, d in enumerate(s.shape.as_list()) if d is None]
        if nones[-1] > 1:
            raise ValueError(f"companion's ragged_batch handles components whose unknown dimensions are "
                             f"their first two. Received a component of spec {s!r}.")
        return _ragged_spec(s.shape, s.dtype, nones[-1])
    return _structure.map_structure(convert, spec)


def as_row(leaf, spec):
    """An element's component as the row `stack` takes for ``spec`` (see `ragged_batch_spec`)."""
    if not is_ragged_spec(spec) or spec.ragged_rank == 0 or is_ragged(leaf):
        return leaf
    # deferred: companion.ragged is a lazy package, loaded when ragged values appear
    from companion.ragged import RaggedTensor

    return RaggedTensor.from_tensor(np.asarray(leaf))


def _concat(parts):
    if not is_ragged(parts[0]):
        return np.concatenate([np.asarray(part) for part in parts])
    # deferred: companion.ragged is a lazy package, loaded when ragged values appear
    from companion.ragged import RaggedTensor

    inner = [_leaf(part.values) for part in parts]
    offsets = np.cumsum([0] + [len(v) for v in inner])
    splits = [np.asarray(part._splits[1:] if k else part._splits) + offsets[k]
              for k, part in enumerate(parts)]
    return RaggedTensor.from_row_splits(_concat(inner), np.concatenate(splits), validate=False)


def _leaf(value):
    return value if is_ragged(value) else np.asarray(getattr(value, "_value", value))


def _ragged_spec(shape, dtype, ragged_rank):
    # deferred: companion.ragged is a lazy package, loaded when ragged values appear
    from companion.ragged._spec import RaggedTensorSpec

    return RaggedTensorSpec(shape, dtype, ragged_rank)
