"""Gradient clipping as Keras does it: by each gradient's norm, by the global norm, or by value.

Each gradient may come with its squares (``None``: ``grad ** 2``). An `IndexedSlices` gradient's
squares are its slices squared, then added into rows (Keras's sparse ``ops.square``), so its norm
is that of its slices; clipping scales them with the gradient.
"""

import jax.numpy as jnp


def clip(grads, clipnorm=None, clipvalue=None, global_clipnorm=None, squares=None):
    """Clips a list of gradient arrays (at most one of the three options is set).

    Returns ``(grads, squares)``, the squares scaled as their gradients were.
    """
    squares = [None] * len(grads) if squares is None else list(squares)
    if clipnorm is not None:
        scales = [_scale(_square_sum(g, sq), clipnorm) for g, sq in zip(grads, squares)]
    elif global_clipnorm is not None:
        dtype = jnp.result_type(*grads)
        total = sum(_square_sum(g, sq).astype(dtype) for g, sq in zip(grads, squares))
        scale = _scale(total, global_clipnorm)
        scales = [scale.astype(g.dtype) for g in grads]
    elif clipvalue is not None:  # an IndexedSlices gradient's slices were clipped before (its squares)
        clipped = [jnp.clip(g, -clipvalue, clipvalue) if sq is None else g for g, sq in zip(grads, squares)]
        return clipped, squares
    else:
        return grads, squares
    return ([g * s for g, s in zip(grads, scales)],
            [None if sq is None else sq * jnp.square(s) for sq, s in zip(squares, scales)])


def _square_sum(grad, square):
    return jnp.sum(jnp.square(grad) if square is None else square)


def _scale(square_sum, clip_norm):
    return clip_norm / jnp.maximum(jnp.sqrt(square_sum), clip_norm)
