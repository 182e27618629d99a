"""Special functions of ``tf.math`` (and ``tf.math.special``): error-function inverses, Bessel,
incomplete gamma and beta, polygamma, zeta, ``lbeta``; and the ``*_no_nan``-style helpers
``xlog1py`` and ``reciprocal_no_nan``. Each is a pure JAX function under `op`, so tapes and
`function` differentiate and compile it like any other op."""

import jax
import jax.numpy as jnp
import jax.scipy.special as jsp
import numpy as np

from companion._core._convert import as_input, binary_inputs
from companion._core._errors import InvalidArgumentTypeError
from companion._core._op import op
from companion._core._tensor import Tensor

__all__ = ["bessel_i0", "bessel_i0e", "bessel_i1", "bessel_i1e", "betainc", "erfc", "erfcinv", "erfinv",
           "igamma", "igammac", "lbeta", "ndtri", "polygamma", "reciprocal_no_nan", "xlog1py", "zeta"]
SPECIAL = ["bessel_i0", "bessel_i0e", "bessel_i1", "bessel_i1e", "expint", "spence"]  # tf.math.special


def _floats(*values, what):
    """The values as tensors of one floating dtype (TF's rule for these ops), else a TypeError.
    Python numbers take the dtype of the first tensor among the values (float32 if none)."""
    anchor = next((v for v in values if isinstance(v, Tensor) or getattr(v, "_is_variable", False)),
                  None)
    tensors = [as_input(values[0])] if anchor is None else [anchor]
    tensors = [binary_inputs(v, tensors[0], what)[0] for v in values]
    for tensor in tensors:
        if not tensor.dtype.is_floating:
            raise InvalidArgumentTypeError(
                f"{what} needs floating-point tensors. Received dtype {tensor.dtype.name}: {tensor!s}. "
                "Cast it first, e.g. companion.cast(x, companion.float32).")
    return tensors


def _elementwise(name, fn, doc, arity=1):
    pure = op(name)(fn)

    def apply(*args, name=None):
        if len(args) != arity:
            raise TypeError(f"{pure.name} takes {arity} tensor argument(s). Received {len(args)}.")
        return pure(*_floats(*args, what=pure.name))

    apply.__name__ = name
    apply.__doc__ = doc
    apply.op = pure
    return apply


def _erfcinv(x):
    return -jsp.ndtri(0.5 * x) * np.float32(np.sqrt(0.5)).astype(x.dtype)


def _polygamma(a, x):
    whole = a == jnp.floor(a)
    order = jnp.where(whole & (a >= 0), a, 0).astype(jnp.int32)
    return jnp.where(whole & (a >= 0), jsp.polygamma(order, x), jnp.nan)


@jax.custom_jvp
def _xlog1py_tf(x, y):
    return jnp.where(x == 0, jnp.zeros_like(x), x * jnp.log1p(y))


@_xlog1py_tf.defjvp
def _xlog1py_jvp(primals, tangents):
    """TF's Xlog1pyGrad: ``log1p(y)`` and ``x / (1 + y)`` where ``x != 0``, both 0 where ``x == 0``."""
    (x, y), (tx, ty) = primals, tangents
    nonzero = x != 0
    safe_y = jnp.where(nonzero, y, jnp.zeros_like(y))
    partial_x = jnp.where(nonzero, jnp.log1p(safe_y), 0)
    partial_y = jnp.where(nonzero, x / (1 + safe_y), 0)
    return _xlog1py_tf(x, y), (partial_x * tx + partial_y * ty).astype(x.dtype)


def _reciprocal_no_nan(x):
    zero = x == 0
    return jnp.where(zero, jnp.zeros_like(x), 1 / jnp.where(zero, jnp.ones_like(x), x))


erfc = _elementwise("erfc", jsp.erfc, "``1 - erf(x)``, element-wise (accurate for large ``x``).")
erfinv = _elementwise("erfinv", jsp.erfinv, "The inverse of `erf`, element-wise.")
erfcinv = _elementwise("erfcinv", _erfcinv, "The inverse of `erfc`, element-wise.")
ndtri = _elementwise("ndtri", jsp.ndtri, "The standard normal quantile function, element-wise.")
bessel_i0 = _elementwise("bessel_i0", jsp.i0, "The modified Bessel function of order 0, element-wise.")
bessel_i0e = _elementwise("bessel_i0e", jsp.i0e, "``exp(-|x|) * bessel_i0(x)``, element-wise.")
bessel_i1 = _elementwise("bessel_i1", jsp.i1, "The modified Bessel function of order 1, element-wise.")
bessel_i1e = _elementwise("bessel_i1e", jsp.i1e, "``exp(-|x|) * bessel_i1(x)``, element-wise.")
igamma = _elementwise("igamma", jsp.gammainc, "The lower regularized incomplete gamma function P(a, x).", 2)
igammac = _elementwise("igammac", jsp.gammaincc, "The upper regularized incomplete gamma function Q(a, x).",
                       2)
betainc = _elementwise("betainc", jsp.betainc, "The regularized incomplete beta function I_x(a, b).", 3)
expint = _elementwise("expint", jsp.expi, "The exponential integral Ei(x), element-wise.")
spence = _elementwise("spence", jsp.spence, "Spence's function (the dilogarithm of ``1 - x``), element-wise.")
zeta = _elementwise("zeta", jsp.zeta, "The Hurwitz zeta function ``zeta(x, q)``, element-wise.", 2)
polygamma = _elementwise("polygamma", _polygamma,
                         "The ``a``-th derivative of `digamma` at ``x`` (nan where ``a`` is not a whole "
                         "number >= 0, as TF).", 2)
xlog1py = _elementwise("xlog1py", lambda x, y: _xlog1py_tf(x, y),
                       "``x * log1p(y)``, but 0 wherever ``x`` is 0.", 2)
reciprocal_no_nan = _elementwise("reciprocal_no_nan", _reciprocal_no_nan,
                                 "``1 / x``, but 0 where ``x`` is 0.")


@op("lbeta")
def _lbeta(x):
    return jnp.sum(jsp.gammaln(x), axis=-1) - jsp.gammaln(jnp.sum(x, axis=-1))


def lbeta(x, name=None):
    """``log(|Beta(x)|)`` over the last axis: ``sum(lgamma(x), -1) - lgamma(sum(x, -1))``.

    Example:
        >>> import companion as tf
        >>> round(float(tf.math.lbeta(tf.constant([1.0, 2.0]))), 5)
        -0.69315
    """
    (x,) = _floats(x, what="lbeta")
    return _lbeta(x)
