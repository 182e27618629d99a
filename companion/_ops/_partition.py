"""Ops whose result's shape depends on values: `dynamic_partition` and `dynamic_stitch` (eager, or
with concrete values while tracing: XLA needs every shape when it compiles)."""

import numpy as np

from companion._core._convert import as_input
from companion._core._errors import InvalidArgumentError, RuntimeCheckError
from companion._ops._array import concat, reshape
from companion._ops._select import gather
from companion._ops._static import static_int

__all__ = ["dynamic_partition", "dynamic_stitch"]


def _concrete(tensor, what):
    if tensor.is_traced:
        raise TypeError(f"{what}: the result's shape depends on the values of this tensor, which are not "
                        "known while a function is traced (XLA compiles fixed shapes). Run it eagerly, "
                        "or use companion.boolean_mask / tensor_scatter_nd_update with fixed sizes. "
                        f"Received: {tensor!s}")
    return tensor.numpy()


def dynamic_partition(data, partitions, num_partitions, name=None):
    """Splits ``data`` into ``num_partitions`` tensors: the i-th holds the slices of ``data`` whose
    entry in ``partitions`` (shaped like ``data``'s leading axes) is i, in order.

    Example:
        >>> import companion as tf
        >>> [p.numpy().tolist() for p in tf.dynamic_partition([10, 20, 30, 40], [0, 1, 1, 0], 2)]
        [[10, 40], [20, 30]]
    """
    data, partitions = as_input(data), as_input(partitions)
    count = static_int(num_partitions, "dynamic_partition: num_partitions")
    ids = _concrete(partitions, "dynamic_partition")
    if tuple(data.shape[:ids.ndim]) != ids.shape:
        raise InvalidArgumentError(f"dynamic_partition: partitions of shape {list(ids.shape)} must be a "
                                   f"prefix of data's shape {list(data.shape)}.")
    if ids.size and (ids.min() < 0 or ids.max() >= count):
        bad = int(ids[(ids < 0) | (ids >= count)].ravel()[0])
        raise RuntimeCheckError(f"dynamic_partition: partitions[...] = {bad} is not in [0, {count}).")
    rows = reshape(data, [-1] + list(data.shape[ids.ndim:]))
    flat = ids.ravel()
    return [gather(rows, np.flatnonzero(flat == i).astype(np.int32)) for i in range(count)]


def dynamic_stitch(indices, data, name=None):
    """Interleaves ``data`` into one tensor: ``merged[indices[m][i]] = data[m][i]`` (a later
    entry wins where indices repeat); ``merged`` has ``max(indices) + 1`` rows."""
    if len(indices) != len(data) or not indices:
        raise ValueError(f"dynamic_stitch needs as many index tensors as data tensors (at least one). "
                         f"Received {len(indices)} and {len(data)}.")
    positions = [_concrete(as_input(i), "dynamic_stitch").astype(np.int64) for i in indices]
    tensors = [as_input(d) for d in data]
    tail = tuple(tensors[0].shape[positions[0].ndim:])
    for where, tensor in zip(positions, tensors):
        if tuple(tensor.shape) != where.shape + tail:
            raise InvalidArgumentError(
                f"dynamic_stitch: data of shape {list(tensor.shape)} does not match its indices' shape "
                f"{list(where.shape)} followed by {list(tail)}.")
    flat = np.concatenate([w.ravel() for w in positions])
    size = int(flat.max()) + 1 if flat.size else 0
    source = np.full(size, -1, np.int64)
    source[flat] = np.arange(flat.size)  # NumPy assigns in order: the last write wins, as TF
    if (source < 0).any():
        raise RuntimeCheckError(f"dynamic_stitch: index {int(np.flatnonzero(source < 0)[0])} is missing "
                                "from indices (every row 0..max must be given).")
    rows = concat([reshape(t, [-1, *tail]) for t in tensors], axis=0)
    return gather(rows, source.astype(np.int32))

