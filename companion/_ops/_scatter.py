"""Scatter ops: scatter_nd and tensor_scatter_nd_update/_add/_sub/_min/_max.

``indices[..., :]`` are index vectors into the leading dimensions of the target; each
picks one element (or slice) that receives the matching entry of ``updates``. Repeated
indices add up in ``scatter_nd``/``_add``/``_sub``; for ``_update`` one of them wins.
"""

import functools
import types

import jax.numpy as jnp
import numpy as np

from companion._core._convert import as_input
from companion._core._errors import InvalidArgumentError, RuntimeCheckError
from companion._core._op import op
from companion._ops._host_index_checks import checked_now
from companion._ops._static import static_ints

__all__ = ["scatter_nd", "tensor_scatter_nd_add", "tensor_scatter_nd_max", "tensor_scatter_nd_min",
           "tensor_scatter_nd_sub", "tensor_scatter_nd_update"]


def _where(tensor, indices):
    columns = [jnp.where(c < 0, d, c) for c, d in zip(jnp.moveaxis(indices, -1, 0), tensor.shape)]
    return tensor.at[tuple(columns)]


@op("tensor_scatter_nd_update")
def _update(tensor, indices, updates):
    return _where(tensor, indices).set(updates, mode="drop")


@op("tensor_scatter_nd_add")
def _add(tensor, indices, updates):
    return _where(tensor, indices).add(updates, mode="drop")


@op("tensor_scatter_nd_sub")
def _sub(tensor, indices, updates):
    return _where(tensor, indices).add(-updates, mode="drop")


@op("tensor_scatter_nd_min")
def _min(tensor, indices, updates):
    return _where(tensor, indices).min(updates, mode="drop")


@op("tensor_scatter_nd_max")
def _max(tensor, indices, updates):
    return _where(tensor, indices).max(updates, mode="drop")


@op("scatter_nd", static=("shape",))
def _scatter_nd(indices, updates, shape):
    return _where(jnp.zeros(shape, updates.dtype), indices).add(updates, mode="drop")


def tensor_scatter_nd_update(tensor, indices, updates, name=None):
    """A copy of ``tensor`` with the entries at ``indices`` replaced by ``updates``.

    Example:
        >>> import companion as tf
        >>> print(tf.tensor_scatter_nd_update(tf.zeros(4), [[1], [3]], [5.0, 7.0]))
        companion.Tensor([0. 5. 0. 7.], shape=(4,), dtype=float32)
    """
    tensor, indices, updates = _inputs(tensor, indices, updates, "tensor_scatter_nd_update")
    return _update(tensor, indices, updates)


def tensor_scatter_nd_add(tensor, indices, updates, name=None):
    """A copy of ``tensor`` with ``updates`` added at ``indices`` (repeated indices add up).

    Example:
        >>> import companion as tf
        >>> print(tf.tensor_scatter_nd_add(tf.ones(3), [[0], [0], [2]], [1.0, 2.0, 3.0]))
        companion.Tensor([4. 1. 4.], shape=(3,), dtype=float32)
    """
    tensor, indices, updates = _inputs(tensor, indices, updates, "tensor_scatter_nd_add")
    return _add(tensor, indices, updates)


def tensor_scatter_nd_sub(tensor, indices, updates, name=None):
    """A copy of ``tensor`` with ``updates`` subtracted at ``indices`` (repeated indices add up).

    Example:
        >>> import companion as tf
        >>> print(tf.tensor_scatter_nd_sub(tf.ones(3), [[0], [2]], [1.0, 3.0]))
        companion.Tensor([ 0.  1. -2.], shape=(3,), dtype=float32)
    """
    tensor, indices, updates = _inputs(tensor, indices, updates, "tensor_scatter_nd_sub")
    return _sub(tensor, indices, updates)


def tensor_scatter_nd_min(tensor, indices, updates, name=None):
    """A copy of ``tensor`` where each entry at ``indices`` becomes ``min(entry, update)``.

    Example:
        >>> import companion as tf
        >>> print(tf.tensor_scatter_nd_min(tf.constant([1, 5, 3]), [[1], [2]], [2, 7]))
        companion.Tensor([1 2 3], shape=(3,), dtype=int32)
    """
    tensor, indices, updates = _inputs(tensor, indices, updates, "tensor_scatter_nd_min")
    return _min(tensor, indices, updates)


def tensor_scatter_nd_max(tensor, indices, updates, name=None):
    """A copy of ``tensor`` where each entry at ``indices`` becomes ``max(entry, update)``.

    Example:
        >>> import companion as tf
        >>> print(tf.tensor_scatter_nd_max(tf.constant([1, 5, 3]), [[1], [2]], [2, 7]))
        companion.Tensor([1 5 7], shape=(3,), dtype=int32)
    """
    tensor, indices, updates = _inputs(tensor, indices, updates, "tensor_scatter_nd_max")
    return _max(tensor, indices, updates)


def scatter_nd(indices, updates, shape, name=None):
    """A zero tensor of ``shape`` with ``updates`` added at ``indices`` (repeated indices add up).

    Example:
        >>> import companion as tf
        >>> print(tf.scatter_nd([[4], [3], [1], [7]], [9, 10, 11, 12], [8]))
        companion.Tensor([ 0 11  0 10  9  0  0 12], shape=(8,), dtype=int32)
    """
    dims = static_ints(shape, "scatter_nd: shape")
    updates = as_input(updates)
    zeros = _Shape(dims, updates)
    _, indices, updates = _inputs(zeros, indices, updates, "scatter_nd")
    return _scatter_nd(indices, updates, shape=dims)


class _Shape:
    """Stands for the zero tensor of scatter_nd in the shape checks."""

    def __init__(self, dims, like):
        self._v = types.SimpleNamespace(shape=tuple(dims))
        self.dtype = like.dtype


def _inputs(tensor, indices, updates, what):
    if not isinstance(tensor, _Shape):
        tensor = as_input(tensor)
    indices = as_input(indices)
    updates = as_input(updates, tensor.dtype) if not hasattr(updates, "_value") else updates
    if not indices.dtype.is_integer:
        raise TypeError(f"{what}: indices must be an integer tensor. Received dtype {indices.dtype.name}: "
                        f"{indices!s}. Cast it with companion.cast(indices, companion.int32).")
    shape, ishape = tensor._v.shape, indices._v.shape
    depth = ishape[-1] if ishape else 0
    want = ishape[:-1] + shape[depth:]
    if not ishape or depth > len(shape) or updates._v.shape != want:
        raise InvalidArgumentError(
            f"{what}: for a target of shape {shape} and indices of shape {ishape}, updates must have "
            f"shape indices.shape[:-1] + shape[indices.shape[-1]:] = {want}. Received updates of shape "
            f"{updates._v.shape}.")
    if updates.dtype != tensor.dtype:
        raise TypeError(f"{what}: updates must have the target's dtype {tensor.dtype.name}. Received "
                        f"{updates.dtype.name}.")
    if not indices.is_traced:
        staged = updates.is_traced or getattr(tensor, "is_traced", False)
        check = functools.partial(_check_range, shape=shape, depth=depth, what=what)
        indices = checked_now(indices, check, staged)
    return tensor, indices, updates


def _check_range(array, shape, depth, what):
    for k in range(depth):
        bad = (array[..., k] < 0) | (array[..., k] >= shape[k])
        if bad.any():
            raise RuntimeCheckError(
                f"{what}: indices{list(np.argwhere(bad)[0])} = {array[..., k][bad][0]} does not index "
                f"into dimension {k} of size {shape[k]}. Every index must be in [0, {shape[k]}).")
