"""Activation functions of `companion.nn`: relu and its relatives, gelu, silu, softmax."""

import functools

import jax
import jax.numpy as jnp

from companion._core._convert import as_input
from companion._core._dispatch import elementwise_dispatch
from companion._core._op import op
from companion._ops._array import concat
from companion._ops._kernel_dtypes import unsupported_dtype_error
from companion._ops._nn import check_axis, float_input

# -- pure ops --------------------------------------------------------------------------------

@op("relu")
def _relu(x):
    return jax.nn.relu(x)  # gradient 0 at x == 0, as TF


@op("relu6")
def _relu6(x):
    return jax.nn.relu6(x)


@op("elu")
def _elu(x):
    return jax.nn.elu(x)


_SELU_ALPHA, _SELU_SCALE = 1.6732632423543772848170429916717, 1.0507009873554804934193349852946


@op("selu")
def _selu(x):
    # TF's branches: x < 0 is the exponential one, so the gradient at 0 is `scale` (JAX's: scale * alpha)
    negative = _SELU_SCALE * _SELU_ALPHA * jnp.expm1(jnp.minimum(x, 0))
    return jnp.where(x < 0, negative, _SELU_SCALE * x).astype(x.dtype)


@op("gelu", static=("approximate",))
def _gelu(x, approximate):
    return jax.nn.gelu(x, approximate=approximate)


@op("leaky_relu", static=("alpha",))
def _leaky_relu(x, alpha):
    return jnp.where(x > 0, x, x * jnp.asarray(alpha, x.dtype))


@op("silu", static=("beta",))
def _silu(x, beta):
    return x * jax.nn.sigmoid(x * jnp.asarray(beta, x.dtype))


@functools.partial(jax.custom_jvp, nondiff_argnums=(1,))
def _tf_softmax(x, axis):
    return jax.nn.softmax(x, axis=axis)


@_tf_softmax.defjvp
def _tf_softmax_jvp(axis, primals, tangents):
    # written so that its transpose is TF's SoftmaxGrad, (g - sum(g * y)) * y, rounding and all
    # (JAX's own rule rounds differently: the gradient of sum(softmax(x)) is not exactly 0)
    y = _tf_softmax(primals[0], axis)
    scaled = y * tangents[0]
    return y, scaled - y * jnp.sum(scaled, axis=axis, keepdims=True)


@functools.partial(jax.custom_jvp, nondiff_argnums=(1,))
def _tf_log_softmax(x, axis):
    return jax.nn.log_softmax(x, axis=axis)


@_tf_log_softmax.defjvp
def _tf_log_softmax_jvp(axis, primals, tangents):
    # transposes to TF's LogSoftmaxGrad, g - sum(g) * exp(log_softmax)
    out = _tf_log_softmax(primals[0], axis)
    (t,) = tangents
    return out, t - jnp.sum(jnp.exp(out) * t, axis=axis, keepdims=True)


@op("softmax", static=("axis",))
def _softmax(x, axis):
    return _tf_softmax(x, axis)


@op("log_softmax", static=("axis",))
def _log_softmax(x, axis):
    return _tf_log_softmax(x, axis)


# -- public functions ----------------------------------------------------------------------

@elementwise_dispatch
def relu(features, name=None):
    """Rectified linear unit: ``max(features, 0)``, element-wise (any numeric dtype).

    Example:
        >>> import companion as tf
        >>> print(tf.nn.relu([-1.0, 0.0, 2.0]))
        companion.Tensor([0. 0. 2.], shape=(3,), dtype=float32)
    """
    features = as_input(features)
    if not features.dtype.is_numeric or features.dtype.is_complex:  # TF: no Relu kernel for them
        raise unsupported_dtype_error()(
            f"relu needs a real numeric tensor. Received dtype {features.dtype.name}: {features!s}. "
            "Convert it first with companion.cast. [Op:Relu]")
    return _relu(features)


@elementwise_dispatch
def relu6(features, name=None):
    """``min(max(features, 0), 6)``, element-wise."""
    return _relu6(float_input(features, "relu6"))


@elementwise_dispatch
def elu(features, name=None):
    """Exponential linear unit: ``features`` if positive, else ``exp(features) - 1``."""
    return _elu(float_input(features, "elu"))


@elementwise_dispatch
def selu(features, name=None):
    """Scaled ELU: ``scale * elu(features)`` with alpha ≈ 1.6733 and scale ≈ 1.0507 (self-normalizing)."""
    return _selu(float_input(features, "selu"))


@elementwise_dispatch
def gelu(features, approximate=False, name=None):
    """Gaussian error linear unit: ``x * Φ(x)``, or its tanh approximation when ``approximate``.

    Example:
        >>> import companion as tf
        >>> print(tf.nn.gelu([0.0, 1.0]))
        companion.Tensor([0.        0.8413447], shape=(2,), dtype=float32)
    """
    return _gelu(float_input(features, "gelu"), approximate=bool(approximate))


@elementwise_dispatch
def leaky_relu(features, alpha=0.2, name=None):
    """``features`` where positive, ``alpha * features`` elsewhere.

    Example:
        >>> import companion as tf
        >>> print(tf.nn.leaky_relu([-1.0, 2.0], alpha=0.1))
        companion.Tensor([-0.1  2. ], shape=(2,), dtype=float32)
    """
    return _leaky_relu(float_input(features, "leaky_relu"), alpha=float(alpha))


def silu(features, beta=1.0, name=None):
    """Sigmoid linear unit (swish): ``features * sigmoid(beta * features)``."""
    return _silu(float_input(features, "silu"), beta=float(beta))


swish = silu


def softmax(logits, axis=None, name=None):
    """``exp(logits) / reduce_sum(exp(logits), axis)``, computed stably (``axis`` defaults to -1).

    Example:
        >>> import companion as tf
        >>> print(tf.nn.softmax([0.0, 0.0]))
        companion.Tensor([0.5 0.5], shape=(2,), dtype=float32)
    """
    logits = float_input(logits, "softmax", "logits", unsupported_dtype_error())  # TF: no kernel
    return _softmax(logits, axis=_logits_axis(logits, axis, "softmax"))


def log_softmax(logits, axis=None, name=None):
    """``logits - log(reduce_sum(exp(logits), axis))``, computed stably (``axis`` defaults to -1)."""
    logits = float_input(logits, "log_softmax", "logits", unsupported_dtype_error())
    return _log_softmax(logits, axis=_logits_axis(logits, axis, "log_softmax"))


def _logits_axis(logits, axis, op_name):
    if logits.ndim == 0:
        raise ValueError(f"{op_name} needs logits of rank 1 or more. Received a scalar: {logits!s}")
    return check_axis(axis, logits.ndim, op_name)


def crelu(features, axis=-1, name=None):
    """Concatenated ReLU: ``concat([relu(x), relu(-x)], axis)`` (the axis doubles in size).

    Example:
        >>> import companion as tf
        >>> print(tf.nn.crelu([1.0, -2.0]))
        companion.Tensor([1. 0. 0. 2.], shape=(4,), dtype=float32)
    """
    x = float_input(features, "crelu")
    return concat([_relu(x), _relu(-x)], axis=axis)
