"""The fused op behind `Dense`: ``activation(x @ kernel + bias)`` as one XLA program.

Eagerly each op is one dispatch, so a Dense layer written as matmul, add and activation
costs three; fused it costs one (and the tape records one op). Only activations with a
pure JAX twin are fused; others run as separate ops after the fused affine part.
"""

import jax
import jax.numpy as jnp

from companion._core._op import op
from companion._ops import _gradient_kernels

FUSED_ACTIVATIONS = {
    "linear": None, "relu": jax.nn.relu, "sigmoid": jax.nn.sigmoid, "tanh": _gradient_kernels.tanh,
    "softmax": lambda y: jax.nn.softmax(y, axis=-1), "elu": jax.nn.elu, "selu": jax.nn.selu,
    "softplus": jax.nn.softplus,
}


@op("dense_with_logits", static=("activation",))
def dense_with_logits(x, kernel, *bias, activation):
    """``(logits, activation(logits))`` of the affine part, in one op: what `Dense` runs for sigmoid
    and softmax, whose outputs keep their logits for the cross-entropies (Keras 3)."""
    y = _affine(x, kernel, bias)
    return y, FUSED_ACTIVATIONS[activation](y)


def _affine(x, kernel, bias):
    y = jnp.tensordot(x, kernel, [[x.ndim - 1], [0]])
    return y + bias[0] if bias else y


@op("dense", static=("activation",))
def dense(x, kernel, *bias, activation):
    """``activation(tensordot(x, kernel) + bias)`` on the last axis of ``x``."""
    y = _affine(x, kernel, bias)
    fn = FUSED_ACTIVATIONS[activation]
    return y if fn is None else fn(y)
