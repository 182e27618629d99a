"""Keras 3's further activations (relu6, hard_sigmoid, mish, celu, glu, the shrinks, sparsemax,
...): each a pure JAX function under `op`, so tapes and `function` treat it as any op."""

import jax
import jax.numpy as jnp

from companion._core._op import op
from companion._ops import _math
from companion._ops import _nn_activations as _nn
from companion._ops._nn import float_input


def _activation(name, fn, doc, static=()):
    pure = op(name, static=static)(fn)

    def apply(x, **params):
        return pure(float_input(x, name), **params)

    apply.__name__ = name
    apply.__doc__ = doc
    return apply


def _sparsemax(x, axis):
    """Keras 3's formula, kept for TF's numbers: its threshold sums the cumulative sums over the
    support instead of taking the last one, so rows with two or more entries in the support do not
    sum to 1 (TF 2.21: sparsemax([1, 0.5, 0]) = [0.25, 0, 0]; Martins & Astudillo's: [0.75, 0.25, 0])."""
    ordered = -jnp.sort(-x, axis=axis)
    cumulative = jnp.cumsum(ordered, axis=axis)
    shape = [1] * x.ndim
    shape[axis] = -1
    rank = jnp.arange(1, x.shape[axis] + 1, dtype=x.dtype).reshape(shape)
    support = ordered - (cumulative - 1) / rank > 0
    k = jnp.sum(support, axis=axis, keepdims=True).astype(x.dtype)
    tau = (jnp.sum(jnp.where(support, cumulative, 0), axis=axis, keepdims=True) - 1) / k
    return jnp.maximum(x - tau, 0)


def _celu(x, alpha):
    """TF's form, ``max(x, 0) + alpha * expm1(min(x, 0) / alpha)``, with its gradient at 0 (2: each
    side's tie passes it)."""
    zero = jnp.zeros_like(x)
    return jnp.where(x >= 0, x, zero) + alpha * jnp.expm1(jnp.where(x <= 0, x, zero) / alpha)


def _sparse_sigmoid(x):
    one = jnp.ones_like(x)
    return jnp.where(x <= -1, 0 * one, jnp.where(x >= 1, one, 0.5 * (x + 1)))  # flat at +-1, as TF


_relu6 = _activation("relu6", jax.nn.relu6, "``min(max(x, 0), 6)``.")
_hard_sigmoid = _activation("hard_sigmoid", jax.nn.hard_sigmoid, "``relu6(x + 3) / 6``.")
_hard_silu = _activation("hard_silu", jax.nn.hard_silu, "``x * hard_sigmoid(x)``.")
_hard_tanh = _activation("hard_tanh", jax.nn.hard_tanh, "``x`` clipped to [-1, 1].")
_mish = _activation("mish", lambda x: x * jnp.tanh(jax.nn.softplus(x)), "``x * tanh(softplus(x))``.")
_celu = _activation("celu", _celu,
                    "``max(0, x) + min(0, alpha * (exp(x / alpha) - 1))``.", static=("alpha",))
_glu = _activation("glu", lambda x, axis: jax.nn.glu(x, axis=axis),
                   "Splits ``x`` in halves ``a, b`` along ``axis``: ``a * sigmoid(b)``.", static=("axis",))
_sparse_plus = _activation("sparse_plus", jax.nn.sparse_plus,
                           "0 below -1, ``(x + 1)**2 / 4`` on [-1, 1], ``x`` above 1.")
_sparse_sigmoid = _activation("sparse_sigmoid", _sparse_sigmoid,
                              "0 below -1, ``(x + 1) / 2`` on [-1, 1], 1 above 1.")
_squareplus = _activation("squareplus", lambda x, b: (x + jnp.sqrt(x * x + b)) / 2,
                          "``(x + sqrt(x**2 + b)) / 2``.", static=("b",))
_soft_shrink = _activation("soft_shrink", lambda x, threshold: jnp.where(
    x > threshold, x - threshold, jnp.where(x < -threshold, x + threshold, jnp.zeros_like(x))),
    "``x - threshold`` above it, ``x + threshold`` below ``-threshold``, else 0.", static=("threshold",))
_hard_shrink = _activation("hard_shrink", lambda x, threshold: jnp.where(
    jnp.abs(x) > threshold, x, jnp.zeros_like(x)), "``x`` where ``|x| > threshold``, else 0.",
    static=("threshold",))
_tanh_shrink = _activation("tanh_shrink", lambda x: x - jnp.tanh(x), "``x - tanh(x)``.")
_threshold = _activation("threshold", lambda x, threshold, default_value: jnp.where(
    x > threshold, x, jnp.asarray(default_value, x.dtype)),
    "``x`` above ``threshold``, else ``default_value``.",
    static=("threshold", "default_value"))
_sparsemax = _activation("sparsemax", _sparsemax,
                         "Keras 3's sparsemax along ``axis`` (see `sparsemax`).", static=("axis",))


def relu6(x):
    """``min(max(x, 0), 6)``."""
    return _relu6(x)


def hard_sigmoid(x):
    """``relu6(x + 3) / 6``: a piecewise-linear sigmoid (Keras 3's; Keras 2 used ``0.2 * x + 0.5``)."""
    return _hard_sigmoid(x)


def hard_silu(x):
    """``x * hard_sigmoid(x)`` (also ``hard_swish``)."""
    return _hard_silu(x)


hard_swish = hard_silu


def hard_tanh(x):
    """``x`` clipped to [-1, 1]."""
    return _hard_tanh(x)


def mish(x):
    """``x * tanh(softplus(x))`` (Misra, 2019)."""
    return _mish(x)


def celu(x, alpha=1.0):
    """Continuously differentiable ELU: ``max(0, x) + min(0, alpha * (exp(x / alpha) - 1))``."""
    return _celu(x, alpha=float(alpha))


def glu(x, axis=-1):
    """Gated linear unit: ``a * sigmoid(b)`` for the halves ``a, b`` of ``x`` along ``axis``."""
    return _glu(x, axis=int(axis))


def sparse_plus(x):
    """0 below -1, ``(x + 1)**2 / 4`` on [-1, 1], ``x`` above 1."""
    return _sparse_plus(x)


def sparse_sigmoid(x):
    """0 below -1, ``(x + 1) / 2`` on [-1, 1], 1 above 1."""
    return _sparse_sigmoid(x)


def squareplus(x, b=4):
    """``(x + sqrt(x**2 + b)) / 2``, a smooth ReLU."""
    return _squareplus(x, b=float(b))


def soft_shrink(x, threshold=0.5):
    """``x - threshold`` above ``threshold``, ``x + threshold`` below ``-threshold``, else 0."""
    return _soft_shrink(x, threshold=float(threshold))


def hard_shrink(x, threshold=0.5):
    """``x`` where ``|x| > threshold``, else 0."""
    return _hard_shrink(x, threshold=float(threshold))


def tanh_shrink(x):
    """``x - tanh(x)``."""
    return _tanh_shrink(x)


def threshold(x, threshold, default_value):
    """``x`` where ``x > threshold``, else ``default_value``."""
    return _threshold(x, threshold=float(threshold), default_value=float(default_value))


def sparsemax(x, axis=-1):
    """Keras 3's sparsemax along ``axis``: exact zeros below a threshold. Its threshold follows
    Keras's formula, so the result matches TF's, not the paper's projection onto the simplex."""
    return _sparsemax(x, axis=int(axis))


def softsign(x):
    """``x / (|x| + 1)``."""
    return _math.softsign(x)


def exponential(x):
    """``exp(x)``."""
    return _math.exp(x)


def log_sigmoid(x):
    """``log(sigmoid(x))``, computed as ``-softplus(-x)``."""
    return _math.log_sigmoid(x)


def log_softmax(x, axis=-1):
    """``x - log(sum(exp(x)))`` along ``axis``."""
    return _nn.log_softmax(x, axis=axis)


ALL = (relu6, hard_sigmoid, hard_silu, hard_tanh, mish, celu, glu, sparse_plus, sparse_sigmoid, squareplus,
       soft_shrink, hard_shrink, tanh_shrink, threshold, sparsemax, softsign, exponential, log_sigmoid,
       log_softmax)
