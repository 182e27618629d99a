"""``sqrt``, ``rsqrt``, ``reciprocal`` and ``tanh`` differentiated with TensorFlow's gradient kernels.

TF computes the gradient of these three from their output ``y`` with kernels (``SqrtGrad``,
``RsqrtGrad``, ``ReciprocalGrad``) that return 0 wherever the incoming gradient ``dy`` is 0, whatever
``y`` is. So ``tf.where(x > 0, tf.sqrt(x), 0.)`` has gradient 0 at ``x = 0`` and at ``x < 0``, where
JAX's rule ``dy * 0.5 / y`` gives ``0 * inf`` or ``0 * nan``: NaN. ``TanhGrad`` masks nothing but
computes ``dy * (1 - y * y)``, which rounds differently from JAX's ``(dy + dy * y) * (1 - y)``
(near ``|y| = 1`` by several digits: the subtraction cancels). ``SigmoidGrad`` rounds as JAX's
own rule does, which ``sigmoid`` keeps.

The rule "0 where ``dy == 0``" is not linear in ``dy``, so a ``jax.custom_jvp`` cannot state it.
Each op is instead a ``custom_jvp`` whose tangent is a small primitive, linear in the tangent,
whose transpose is TF's kernel (`_GRAD`, one primitive per op). What the tangent computes is what
TF's forward mode (``ForwardAccumulator``, TF's "double backward" of the kernel) gives: the kernel
itself for ``rsqrt``, ``reciprocal`` and ``tanh``, an unmasked ``0.5 * (t / y)`` for ``sqrt``
(`_SQRT_TANGENT`). The kernels' own derivatives are TF's registered gradients of ``SqrtGrad``,
``RsqrtGrad``, ``ReciprocalGrad`` and ``TanhGrad``, so second derivatives (nested tapes) are TF's
too. Every primitive lowers to its element-wise ``jnp`` expression, so XLA fuses it with its
neighbours as before; each has a vmap rule (Jacobians, ``pfor``).

Complex values follow JAX's convention as the other ops do (no conjugates): only the mask is TF's.
"""

import jax
import jax.extend.core as jex
import jax.numpy as jnp
from jax.interpreters import ad, batching, mlir


def _masked(dy, value):
    """``value`` where ``dy`` is nonzero, else +0 (TF's kernels return ``T(0)``, also for -0)."""
    return jnp.where(dy == 0, jnp.zeros_like(value), value)


# TF's kernels, (output y, incoming gradient dy) -> gradient of the input, in TF's order of rounding
_KERNELS = {
    "sqrt": lambda y, dy: _masked(dy, dy * (0.5 / y)),
    "rsqrt": lambda y, dy: _masked(dy, -0.5 * (dy * y) * (y * y)),
    "reciprocal": lambda y, dy: _masked(dy, -y * y * dy),
    # XLA's CPU compiler fuses 1 - y * y into one multiply-add, rounded once: about one value in
    # five then differs from TF's in the last bit (JAX's own (dy + dy * y) * (1 - y): one in two)
    "tanh": lambda y, dy: dy * (1 - y * y),
}


def _output_aval(y, dy):
    return jax.core.ShapedArray(y.shape, y.dtype)


def _batch_elementwise(prim):
    def rule(args, dims, **params):
        size = next(a.shape[d] for a, d in zip(args, dims) if d is not None)
        moved = [jnp.moveaxis(a, d, 0) if d is not None
                 else jnp.broadcast_to(a, (size, *a.shape)) for a, d in zip(args, dims)]
        return prim.bind(*moved, **params), 0

    batching.primitive_batchers[prim] = rule


def _primitive(name, impl):
    prim = jex.Primitive(name)
    prim.def_impl(impl)
    prim.def_abstract_eval(_output_aval)
    mlir.register_lowering(prim, mlir.lower_fun(impl, multiple_results=False))
    _batch_elementwise(prim)
    return prim


_GRAD = {name: _primitive(f"companion.{name}_grad", kernel) for name, kernel in _KERNELS.items()}
_SQRT_TANGENT = _primitive("companion.sqrt_tangent", lambda y, t: 0.5 * (t / y))


def _transpose_to(grad):
    """Transpose of a tangent map ``t -> f(y, t)`` whose reverse is the masked kernel ``grad``."""

    def transpose(ct, y, t):
        # y, the op's output, is never a linear input: only t is transposed
        if type(ct) is ad.Zero:
            return None, ad.Zero(t.aval)
        return None, grad.bind(y, ct)

    return transpose


def _tangent_in_y(name, y, dy, ty):
    """The kernel's derivative along ``ty`` (a change of ``y``), ordered so that its transpose
    rounds as TF's registered gradient of the kernel (``_SqrtGradGrad`` and its siblings)."""
    if name == "sqrt":  # d/dy (0.5 * dy / y) = -out / y, TF: -(g / y) * out, out the masked kernel
        return -(ty * _GRAD["sqrt"].bind(y, dy)) / y
    if name == "rsqrt":  # TF: -1.5 * g * dy * y^2
        return ((ty * (y * y)) * dy) * -1.5
    return ((ty * y) * dy) * -2.0  # reciprocal and tanh, TF: g * -2 * dy * y


def _grad_jvp(name):
    def jvp(primals, tangents):
        (y, dy), (ty, tdy) = primals, tangents
        out = _GRAD[name].bind(y, dy)
        parts = []
        if type(tdy) is not ad.Zero:
            # TF: the gradient towards dy is the masked kernel again, for sqrt a plain 0.5 * g / y
            parts.append((tdy / y) * 0.5 if name == "sqrt" else _GRAD[name].bind(y, tdy))
        if type(ty) is not ad.Zero:
            parts.append(_tangent_in_y(name, y, dy, ty))
        if not parts:
            return out, ad.Zero.from_primal_value(out)
        return out, parts[0] if len(parts) == 1 else parts[0] + parts[1]

    return jvp


def _sqrt_tangent_jvp(primals, tangents):
    (y, t), (ty, tt) = primals, tangents
    out = _SQRT_TANGENT.bind(y, t)
    parts = []
    if type(tt) is not ad.Zero:
        parts.append(_SQRT_TANGENT.bind(y, tt))
    if type(ty) is not ad.Zero:
        parts.append(-(ty * out) / y)
    if not parts:
        return out, ad.Zero.from_primal_value(out)
    return out, parts[0] if len(parts) == 1 else parts[0] + parts[1]


for _name, _prim in _GRAD.items():
    ad.primitive_jvps[_prim] = _grad_jvp(_name)
    if _name != "sqrt":  # the forward-mode tangent of rsqrt, reciprocal and tanh is their kernel
        ad.primitive_transposes[_prim] = _transpose_to(_prim)
ad.primitive_jvps[_SQRT_TANGENT] = _sqrt_tangent_jvp
ad.primitive_transposes[_SQRT_TANGENT] = _transpose_to(_GRAD["sqrt"])


def _with_tf_gradient(name, fn, tangent):
    exact = jax.custom_jvp(fn)

    @exact.defjvp
    def _jvp(primals, tangents):
        (x,), (t,) = primals, tangents
        y = exact(x)  # not fn(x): differentiated again (a second derivative), y keeps this rule
        return y, tangent.bind(y, t.astype(y.dtype))

    def apply(x):
        if jnp.issubdtype(x.dtype, jnp.inexact):
            return exact(x)
        return fn(x)

    apply.__name__ = name
    return apply


sqrt = _with_tf_gradient("sqrt", jnp.sqrt, _SQRT_TANGENT)
rsqrt = _with_tf_gradient("rsqrt", jax.lax.rsqrt, _GRAD["rsqrt"])
reciprocal = _with_tf_gradient("reciprocal", jnp.reciprocal, _GRAD["reciprocal"])
tanh = _with_tf_gradient("tanh", jnp.tanh, _GRAD["tanh"])
