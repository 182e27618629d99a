"""Gradient clipping as Keras does it: by each gradient's norm, by the global norm, or by value."""

import jax.numpy as jnp


def clip(grads, clipnorm=None, clipvalue=None, global_clipnorm=None):
    """Clips a list of gradient arrays (at most one of the three options is set)."""
    if clipnorm is not None:
        return [clip_by_norm(g, clipnorm) for g in grads]
    if global_clipnorm is not None:
        return clip_by_global_norm(grads, global_clipnorm)
    if clipvalue is not None:
        return [jnp.clip(g, -clipvalue, clipvalue) for g in grads]
    return grads


def clip_by_norm(grad, clip_norm):
    """``g * clip_norm / max(||g||, clip_norm)`` (``tf.clip_by_norm``)."""
    norm = jnp.sqrt(jnp.sum(jnp.square(grad)))
    return grad * clip_norm / jnp.maximum(norm, clip_norm)


def clip_by_global_norm(grads, clip_norm):
    """Scales all of ``grads`` by ``clip_norm / max(global_norm, clip_norm)``."""
    dtype = jnp.result_type(*grads)
    norm = jnp.sqrt(sum(jnp.sum(jnp.square(g.astype(dtype))) for g in grads))
    scale = clip_norm / jnp.maximum(norm, clip_norm)
    return [g * scale.astype(g.dtype) for g in grads]
