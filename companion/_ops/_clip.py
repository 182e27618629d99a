"""Norm clipping: clip_by_norm, clip_by_global_norm and global_norm, as TensorFlow computes them.

A zero norm never divides by zero (the scale is then 1), so the gradient at zero is finite. An
`IndexedSlices` (an embedding's gradient) is measured and scaled by its slices, and stays one.
"""

import jax.numpy as jnp

from companion._core._convert import as_input
from companion._core._indexed_slices import IndexedSlices
from companion._core._op import op
from companion._ops._static import normalize_axes

__all__ = ["clip_by_global_norm", "clip_by_norm", "global_norm"]


@op("clip_by_norm", static=("axes",))
def _clip_by_norm(t, clip_norm, axes):
    clip_norm = clip_norm.astype(t.dtype)
    squares = jnp.sum(t * t, axis=axes, keepdims=True)
    positive = squares > 0
    norm = jnp.where(positive, jnp.sqrt(jnp.where(positive, squares, 1)), squares)
    return t * clip_norm / jnp.maximum(norm, clip_norm)


def clip_by_norm(t, clip_norm, axes=None, name=None):
    """Scales ``t`` down so that its L2 norm (over ``axes``, all by default) is at most ``clip_norm``.

    ``t * clip_norm / max(l2norm(t), clip_norm)``: a tensor already within the norm is
    returned unchanged.

    Example:
        >>> import companion as tf
        >>> print(tf.clip_by_norm(tf.constant([3.0, 4.0]), 1.0))
        companion.Tensor([0.6 0.8], shape=(2,), dtype=float32)
    """
    if isinstance(t, IndexedSlices):
        return IndexedSlices(clip_by_norm(t.values, clip_norm, axes), t.indices, t.dense_shape)
    t = as_input(t)
    _check_float(t, "clip_by_norm")
    axes = normalize_axes(axes, t._v.ndim, "clip_by_norm")
    return _clip_by_norm(t, as_input(clip_norm), axes=axes)


@op("global_norm")
def _global_norm(*ts):
    dtype = ts[0].dtype
    return jnp.sqrt(sum(jnp.sum(jnp.square(t.astype(dtype))) for t in ts))


def global_norm(t_list, name=None):
    """``sqrt(sum(l2norm(t) ** 2 for t in t_list))``; None entries are ignored.

    Example:
        >>> import companion as tf
        >>> print(tf.linalg.global_norm([tf.constant([3.0]), None, tf.constant([4.0])]))
        companion.Tensor(5.0, shape=(), dtype=float32)
    """
    tensors = _present(t_list, "global_norm")
    if not tensors:
        raise ValueError("global_norm needs at least one tensor that is not None. Received: "
                         f"t_list={t_list!r}")
    return _global_norm(*tensors)


@op("clip_by_global_norm")
def _clip_by_global_norm(clip_norm, use_norm, *ts):
    clip_norm = clip_norm.astype(use_norm.dtype)
    scale = clip_norm * jnp.minimum(1.0 / use_norm, 1.0 / clip_norm)
    scale = scale + (use_norm - use_norm)  # NaN for an infinite or NaN norm, else no change
    return tuple(t * scale.astype(t.dtype) for t in ts)


def clip_by_global_norm(t_list, clip_norm, use_norm=None, name=None):
    """Scales every tensor of ``t_list`` by ``clip_norm / max(global_norm, clip_norm)``.

    Returns ``(list_clipped, global_norm)``: None entries stay None, and the norm is the
    one before clipping (or ``use_norm`` when given). An infinite norm gives NaN tensors, as
    in TensorFlow, so a diverged step shows up instead of being silently clipped.

    Example:
        >>> import companion as tf
        >>> clipped, norm = tf.clip_by_global_norm([tf.constant([6.0]), None, tf.constant([8.0])], 5.0)
        >>> print(clipped[0], clipped[1], clipped[2], norm, sep="\\n")
        companion.Tensor([3.], shape=(1,), dtype=float32)
        None
        companion.Tensor([4.], shape=(1,), dtype=float32)
        companion.Tensor(10.0, shape=(), dtype=float32)
    """
    items = list(_sequence(t_list, "clip_by_global_norm"))
    tensors = _present(items, "clip_by_global_norm")
    if not tensors:
        return items, None if use_norm is None else as_input(use_norm)
    norm = global_norm(tensors) if use_norm is None else as_input(use_norm)
    clipped = iter(_clip_by_global_norm(as_input(clip_norm), norm, *tensors))
    return [None if t is None else _like(t, next(clipped)) for t in items], norm


def _like(t, values):
    """``values`` in the form of ``t``: an `IndexedSlices` when ``t`` is one."""
    return IndexedSlices(values, t.indices, t.dense_shape) if isinstance(t, IndexedSlices) else values


def _sequence(t_list, what):
    if not isinstance(t_list, (list, tuple)):
        raise TypeError(f"{what} expects a list or tuple of tensors (e.g. a model's gradients). "
                        f"Received: {type(t_list).__name__} {t_list!r}")
    return t_list


def _present(t_list, what):
    tensors = [as_input(t.values if isinstance(t, IndexedSlices) else t)
               for t in _sequence(t_list, what) if t is not None]
    for t in tensors:
        _check_float(t, what)
    return tensors


def _check_float(t, what):
    if not t.dtype.is_floating:
        raise TypeError(f"{what} needs floating-point tensors, but received one of dtype "
                        f"{t.dtype.name}: {t!s}. Cast it first, e.g. companion.cast(t, companion.float32).")
