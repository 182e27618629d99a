"""Math that stays finite where the textbook formula does not: divide_no_nan, multiply_no_nan,
xlogy, xdivy, reduce_euclidean_norm, and `stop_gradient`, which blocks differentiation.

Each is 0 where its first operand (or divisor) makes the plain formula undefined, and its
gradient there is finite too.
"""

import jax
import jax.numpy as jnp
import jax.scipy.special as jsp

from companion._core import _dtypes
from companion._core._convert import as_input, binary_inputs
from companion._core._dispatch import elementwise_dispatch
from companion._core._op import op
from companion._core._tensor import Tensor
from companion._ops._kernel_dtypes import unsupported_dtype_error
from companion._ops._math import cast, no_bool_division, true_divide
from companion._ops._static import normalize_axes

__all__ = ["divide_no_nan", "multiply_no_nan", "reduce_euclidean_norm", "stop_gradient", "xdivy", "xlogy"]


@op("divide_no_nan")
def _divide_no_nan(x, y):
    zero = y == 0
    return jnp.where(zero, jnp.zeros_like(x), true_divide(x, jnp.where(zero, jnp.ones_like(y), y)))


@jax.custom_vjp
def _mul_no_nan(x, y):
    return jnp.where(y == 0, jnp.zeros_like(x), x * y)


def _mul_no_nan_forward(x, y):
    return _mul_no_nan(x, y), (x, y)


def _mul_no_nan_backward(saved, g):  # TF's gradient: d/dx = g * y, d/dy = x * g, each "no nan"
    x, y = saved
    return _mul_no_nan(g, y), _mul_no_nan(x, g)


_mul_no_nan.defvjp(_mul_no_nan_forward, _mul_no_nan_backward)
_multiply_no_nan = op("multiply_no_nan")(lambda x, y: _mul_no_nan(x, y))


@jax.custom_jvp
def _xlogy_tf(x, y):
    return jsp.xlogy(x, y)


@_xlogy_tf.defjvp
def _xlogy_jvp(primals, tangents):
    """TF's XlogyGrad: ``d/dx = log(y)`` and ``d/dy = x / y`` where ``x != 0``, both 0 where ``x == 0``."""
    (x, y), (tx, ty) = primals, tangents
    nonzero = x != 0
    safe_y = jnp.where(nonzero, y, jnp.ones_like(y))
    partial_x = jnp.where(nonzero, jnp.log(safe_y), 0)
    partial_y = jnp.where(nonzero, x / safe_y, 0)
    return jsp.xlogy(x, y), (partial_x * tx + partial_y * ty).astype(jnp.result_type(x, y))


@op("xlogy")
def _xlogy(x, y):
    return _xlogy_tf(x, y)


@op("xdivy")
def _xdivy(x, y):
    zero = x == 0
    return jnp.where(zero, jnp.zeros_like(x), true_divide(x, jnp.where(zero, jnp.ones_like(y), y)))


def _float_pair(x, y, what):
    x, y = binary_inputs(x, y, what)
    if not (x.dtype.is_floating or x.dtype.is_complex):  # TF: no kernel for them
        raise unsupported_dtype_error()(
            f"{what} needs floating-point (or complex) tensors, but received dtype {x.dtype.name}: {x!s}. "
            "Cast them first, e.g. companion.cast(x, companion.float32).")
    return x, y


@elementwise_dispatch
def divide_no_nan(x, y, name=None):
    """``x / y``, but 0 wherever ``y`` is 0 (even if ``x`` is 0 or inf too).

    Example:
        >>> import companion as tf
        >>> print(tf.math.divide_no_nan(tf.constant([3.0, 1.0]), tf.constant([2.0, 0.0])))
        companion.Tensor([1.5 0. ], shape=(2,), dtype=float32)
    """
    x, y = binary_inputs(x, y, "divide_no_nan")
    no_bool_division(x, "divide_no_nan")
    if x.dtype.is_integer:  # as `divide`: int8/int16 (and uint8/uint16) give float32, wider ones float64
        target = _dtypes.float32 if x.dtype.size <= 2 else _dtypes.float64
        x, y = cast(x, target), cast(y, target)
    return _divide_no_nan(*_float_pair(x, y, "divide_no_nan"))


def multiply_no_nan(x, y, name=None):
    """``x * y``, but 0 wherever ``y`` is 0 (even if ``x`` is inf or nan).

    Example:
        >>> import companion as tf
        >>> print(tf.math.multiply_no_nan(tf.constant([float("inf"), 1.0]), tf.constant([0.0, 2.0])))
        companion.Tensor([0. 2.], shape=(2,), dtype=float32)
    """
    return _multiply_no_nan(*_float_pair(x, y, "multiply_no_nan"))


def xlogy(x, y, name=None):
    """``x * log(y)``, but 0 wherever ``x`` is 0 (so ``0 * log(0)`` is 0, as in entropy sums).

    Example:
        >>> import companion as tf
        >>> print(tf.math.xlogy(tf.constant([0.0, 2.0]), tf.constant([0.0, 1.0])))
        companion.Tensor([0. 0.], shape=(2,), dtype=float32)
    """
    return _xlogy(*_float_pair(x, y, "xlogy"))


def xdivy(x, y, name=None):
    """``x / y``, but 0 wherever ``x`` is 0 (so ``0 / 0`` is 0).

    Example:
        >>> import companion as tf
        >>> print(tf.math.xdivy(tf.constant([0.0, 3.0]), tf.constant([0.0, 2.0])))
        companion.Tensor([0.  1.5], shape=(2,), dtype=float32)
    """
    return _xdivy(*_float_pair(x, y, "xdivy"))


@op("reduce_euclidean_norm", static=("axis", "keepdims"))
def _euclidean_norm(x, axis, keepdims):
    if jnp.issubdtype(x.dtype, jnp.integer):  # TensorFlow keeps the dtype: the root is truncated
        squares = jnp.sum(x.astype(jnp.float64) ** 2, axis=axis, keepdims=keepdims)
        return jnp.floor(jnp.sqrt(squares)).astype(x.dtype)
    if jnp.issubdtype(x.dtype, jnp.complexfloating):
        squares = jnp.sum(jnp.abs(x) ** 2, axis=axis, keepdims=keepdims)
        return jnp.sqrt(squares).astype(x.dtype)
    return jnp.sqrt(jnp.sum(x * x, axis=axis, keepdims=keepdims))


def reduce_euclidean_norm(input_tensor, axis=None, keepdims=False, name=None):
    """``sqrt(sum(x ** 2))`` across dimensions, in the input's dtype (integers are truncated).

    Example:
        >>> import companion as tf
        >>> x = tf.constant([[1, 2, 3], [1, 1, 1]])
        >>> print(tf.math.reduce_euclidean_norm(x), tf.math.reduce_euclidean_norm(x, axis=1))
        companion.Tensor(4, shape=(), dtype=int32) companion.Tensor([3 1], shape=(2,), dtype=int32)
    """
    x = as_input(input_tensor)
    if not x.dtype.is_numeric:
        raise TypeError(f"reduce_euclidean_norm needs a numeric tensor, but received dtype {x.dtype.name}: "
                        f"{x!s}. Cast it first, e.g. companion.cast(x, companion.float32).")
    axes = normalize_axes(axis, x._v.ndim, "reduce_euclidean_norm")
    return _euclidean_norm(x, axis=axes, keepdims=bool(keepdims))


def stop_gradient(input, name=None):  # noqa: A002 - TensorFlow's argument name
    """``input`` itself, but gradients do not flow through it (a tape sees no connection).

    Use it for targets that must be treated as constants, e.g. the target network's values
    in Q-learning or the "teacher" outputs in distillation.

    Example:
        >>> import companion as tf
        >>> x = tf.Variable(2.0)
        >>> with tf.GradientTape() as tape:
        ...     y = x * tf.stop_gradient(x)
        >>> float(tape.gradient(y, x))
        2.0
    """
    value = as_input(input)._value
    if not isinstance(value, jax.core.Tracer):  # a value known while tracing stays one (TF's constants)
        return Tensor(value)
    return Tensor(jax.lax.stop_gradient(value))
