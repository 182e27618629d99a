"""Element-wise math: arithmetic, comparisons, logic, unary functions and `cast`.

Each op is a pure JAX function (`@op`) next to the public function that converts and
checks its inputs with TensorFlow's dtype rules (`binary_inputs`, `as_input`).
"""

import math

import jax
import jax.numpy as jnp

from companion._core import _dtypes, _tensor_names
from companion._core._context import state
from companion._core._convert import as_input, binary_inputs
from companion._core._dispatch import composite, elementwise_dispatch
from companion._core._errors import (
    InternalError,
    InvalidArgumentError,
    UnimplementedTypeError,
)
from companion._core._node_messages import broadcast_mismatch, dt_name, node_message
from companion._core._op import op
from companion._ops import _gradient_kernels
from companion._ops._debugging import run_check
from companion._ops._kernel_dtypes import checked, unsupported_dtype_error
from companion._ops._shape_hints import matmul_instead_hint

__all__ = [
    "abs", "acos", "acosh", "add", "add_n", "asin", "asinh", "atan", "atan2", "atanh", "bitwise_and",
    "bitwise_or", "bitwise_xor", "cast", "ceil", "clip_by_value", "conj", "cos", "cosh", "divide", "equal",
    "erf",
    "exp", "expm1", "floor", "floor_div", "floordiv", "floormod", "greater", "greater_equal",
    "imag", "invert", "is_finite", "is_inf", "is_nan", "left_shift", "less", "less_equal", "lgamma",
    "log", "log1p", "logical_and", "logical_not", "logical_or", "logical_xor", "maximum", "minimum",
    "mod", "multiply", "neg", "negative", "not_equal", "pow", "real", "reciprocal", "right_shift",
    "round", "rsqrt", "scalar_mul", "sigmoid", "sign", "sin", "sinh", "softplus", "softsign", "sqrt",
    "square", "squared_difference", "subtract", "tan", "tanh", "truediv",
]

# -- binary ops: arithmetic, comparisons and logic -------------------------------------------

def _binary(name, fn, doc, differentiable=True, check=None, function_node=None):
    """A public binary function: TF's operand conversion, then the pure op ``fn``.

    ``check(y)``: for integer operands, TF's run-time check of the second operand's values
    (`_integer_divisor`, `_integer_exponent`): at once on a value known now, on the host when a
    compiled function runs for a traced one (`_debugging.run_check`). ``function_node``: where TF's
    function (``tf.add``) names its graph node otherwise than its operator (``+``): ``Add`` and
    ``add``. The function then applies an op of that name and the operator (``apply.operator``)
    the op ``name``, so neither pays for the choice on a call."""
    fn = checked(name, fn)
    pure = op(name)(fn)
    pure.differentiable = differentiable
    apply = _binary_apply(name, pure, check)
    if function_node is not None:
        operator = apply
        named = op(function_node)(fn)
        named.differentiable = differentiable
        apply = _binary_apply(name, named, check)
        apply.operator = operator
    apply.__name__ = name
    apply.__doc__ = doc
    apply.op = pure
    return apply


def _binary_apply(name, pure, check):
    def apply(x, y, name=None):
        ragged = composite(x, y)
        if ragged is not None:  # TF's ragged dispatch: the op runs on the flat values
            return ragged._dispatch_elementwise(apply, x, y)
        x, y = binary_inputs(x, y, what)
        if check is not None and y._v.dtype.kind in "iu":  # only integers: no float op reads a value
            check(y)
        if name is not None:
            _tensor_names.given_name(name)
        try:
            return pure(x, y)
        except (TypeError, ValueError) as error:  # JAX raises TypeError for shapes that cannot broadcast
            if "broadcast" not in str(error) or isinstance(error, InvalidArgumentError):
                raise
            raise _broadcast_error(what, pure.name, x, y) from None

    what = name
    return apply


def _broadcast_error(what, op_name, x, y):
    """The error for operands of the op ``op_name`` whose shapes do not broadcast: TF's
    shape-inference message while a function traces, companion's own eagerly."""
    message = _traced_broadcast_message(op_name, x, y) or (
        f"{what}: shapes {x.shape} and {y.shape} cannot be broadcast together: "
        "compared from the right, each pair of dimensions must be equal or one of them 1. "
        "Reshape an operand (e.g. companion.reshape or expand_dims) so they line up.")
    return InvalidArgumentError(message + _product_hint(what, x, y))


def _traced_broadcast_message(op_name, x, y):
    """TF's shape-inference message for operands that do not broadcast, while a function traces."""
    core = broadcast_mismatch(x.shape.as_list(), y.shape.as_list())
    if core is None:
        return None
    return node_message(core, op_name, [(x, "x"), (y, "y")], f"T={dt_name(x.dtype)}")


def _product_hint(name, x, y):
    """For `multiply` (and `*`), whether a matrix product would have taken these shapes."""
    return matmul_instead_hint(tuple(x._v.shape), tuple(y._v.shape)) if name == "multiply" else ""


def _integer_divisor(error, op_name, message=""):
    """The check of an integer division: TF's ``error`` (its class for the op) for a zero divisor,
    where XLA would return a meaningless number."""

    def check(values):
        if not values.all():
            raise error(f"{message}Integer division by zero [Op:{op_name}]: the divisor has a 0 element. "
                        "Divide floats instead, or make the divisor nonzero (e.g. companion.maximum(y, 1)).")

    return lambda y: _run_integer_check(check, y)


def _no_negative_exponent(values):
    if (values < 0).any():
        raise InvalidArgumentError("Integers to negative integer powers are not allowed [Op:Pow]: cast "
                                   "the base to a float dtype (companion.cast(x, 'float32')) for a "
                                   "fractional power.")


def _integer_exponent(y):
    """TF's check of an integer power: no negative exponent (the result would not be an integer)."""
    _run_integer_check(_no_negative_exponent, y)


def _run_integer_check(check, y):
    """``check`` on ``y``'s values: now, or when a compiled `function` runs; not on values traced
    by a JAX transformation of companion code (``jax.jit``/``jax.grad`` of a function using it),
    where a host callback could not run."""
    if state.staging or not y.is_traced:
        run_check(check, y)


add = _binary("add", jnp.add, "``x + y`` element-wise, with broadcasting. Both operands must have one dtype.",
              function_node="Add")
subtract = _binary("subtract", jnp.subtract, "``x - y`` element-wise, with broadcasting.",
                   function_node="Sub")
multiply = _binary("multiply", jnp.multiply, "``x * y`` element-wise, with broadcasting.",
                   function_node="Mul")
floordiv = _binary("floordiv", jnp.floor_divide, "``x // y``: division rounded towards minus infinity.",
                   differentiable=False, check=_integer_divisor(InvalidArgumentError, "FloorDiv"))
floor_div = floordiv
mod = _binary("floormod", jnp.mod, "``x % y`` with the sign of ``y`` (Python's and TF's ``floormod``).",
              function_node="FloorMod",
              check=_integer_divisor(InvalidArgumentError, "FloorMod"))
floormod = mod
pow = _binary("pow", jnp.power, "``x ** y`` element-wise.", check=_integer_exponent, function_node="Pow")
def _ties_to_x(fn, x_wins):
    """``fn`` (maximum or minimum) whose gradient goes wholly to ``x`` where ``x_wins(x, y)`` and
    else to ``y``, as TF's MaximumGrad/MinimumGrad (a tie gives ``x`` all of it; JAX splits it)."""

    @jax.custom_jvp
    def exact(x, y):
        return fn(x, y)

    @exact.defjvp
    def _jvp(primals, tangents):
        (x, y), (tx, ty) = primals, tangents
        out = fn(x, y)
        return out, jnp.where(x_wins(x, y), tx, ty).astype(out.dtype)

    def apply(x, y):
        if jnp.issubdtype(jnp.result_type(x, y), jnp.inexact):
            return exact(x, y)
        return fn(x, y)

    return apply


maximum = _binary("maximum", _ties_to_x(jnp.maximum, jnp.greater_equal),
                  "The element-wise maximum of ``x`` and ``y`` (a tie's gradient goes to ``x``, as TF).")
minimum = _binary("minimum", _ties_to_x(jnp.minimum, jnp.less_equal),
                  "The element-wise minimum of ``x`` and ``y`` (a tie's gradient goes to ``x``, as TF).")
squared_difference = _binary("squared_difference", lambda x, y: jnp.square(x - y),
                             "``(x - y) ** 2`` element-wise.")
# TF's TruncateDiv/TruncateMod kernels report a zero divisor as an internal error, with this text
_TRUNCATE_ERROR = "Unexpected error in binary operator (only integer div and mod should have errors): "
truncatediv = _binary("truncatediv", lambda x, y: (jnp.trunc(x / y) if jnp.issubdtype(x.dtype, jnp.inexact)
                                                  else jax.lax.div(x, y)),
                      "``x / y`` rounded towards zero (C's integer division), element-wise.",
                      differentiable=False,
                      check=_integer_divisor(InternalError, "TruncateDiv", _TRUNCATE_ERROR))
truncatemod = _binary("truncatemod", lambda x, y: (jnp.fmod(x, y) if jnp.issubdtype(x.dtype, jnp.inexact)
                                                  else jax.lax.rem(x, y)),
                      "The remainder of `truncatediv`: it has the sign of ``x`` (C's ``%``, ``fmod``).",
                      check=_integer_divisor(InternalError, "TruncateMod", _TRUNCATE_ERROR))
atan2 = _binary("atan2", jnp.arctan2, "``atan2(y, x)``: the angle of the point ``(x, y)``, element-wise.")


@jax.custom_jvp
def _nextafter(x1, x2):
    return jnp.nextafter(x1, x2)


@_nextafter.defjvp
def _nextafter_jvp(primals, tangents):
    out = _nextafter(*primals)  # TF's gradient: the upstream one for x1, zeros for x2
    return out, jnp.broadcast_to(tangents[0], out.shape).astype(out.dtype)


nextafter = _binary("nextafter", _nextafter,
                    "The next representable float after ``x1`` in the direction of ``x2``, element-wise.")
def true_divide(x, y):
    """``x / y`` correctly rounded in every element, as TF's division kernels compute it.

    XLA rewrites a division by a constant or by a broadcast scalar into a multiplication by its
    reciprocal, which is off by one unit in the last place for about a quarter of values
    (``36 / 100`` gives 0.35999998, not 0.36): a printed ``x / 255.0`` would differ from TF's. The
    divisor is broadcast to the result's shape behind an optimization barrier, which XLA cannot
    see through; a divisor already that shape costs nothing more.
    """
    x, y = jnp.asarray(x), jnp.asarray(y)
    if not (jnp.issubdtype(x.dtype, jnp.inexact) and x.dtype == y.dtype):
        return jnp.true_divide(x, y)
    shape = jnp.broadcast_shapes(x.shape, y.shape)
    return jax.lax.div(jnp.broadcast_to(x, shape), jax.lax.optimization_barrier(jnp.broadcast_to(y, shape)))


_divide = op("divide")(true_divide)


@elementwise_dispatch
def divide(x, y, name=None):
    """``x / y``: true division. Integer inputs give float64 (int8/int16 give float32), as TF."""
    x, y = binary_inputs(x, y, "divide")
    no_bool_division(x, "__truediv__")
    if x.dtype.is_integer:
        target = _dtypes.float32 if x.dtype.size <= 2 else _dtypes.float64
        x, y = cast(x, target), cast(y, target)
    try:
        return _divide(x, y)
    except (TypeError, ValueError) as error:  # JAX raises TypeError for shapes that cannot broadcast
        if "broadcast" not in str(error) or isinstance(error, InvalidArgumentError):
            raise
        raise _broadcast_error("divide", "truediv", x, y) from None


truediv = divide


def no_bool_division(x, what):
    """TF's TypeError for a true division of bools (its ``truediv`` has no bool entry)."""
    if x.dtype.is_bool:
        raise TypeError(f"Invalid dtype tf.bool in {what}. Expected an integer, floating-point or "
                        "complex dtype: cast the operands first (companion.cast).")

_COMPARE = "``{}(x, y)`` element-wise, with broadcasting; returns a bool tensor."
_BITWISE = "``{}(x, y)`` element-wise on integer (or bool) tensors."
equal = _binary("equal", jnp.equal, _COMPARE.format("equal"))
not_equal = _binary("not_equal", jnp.not_equal, _COMPARE.format("not_equal"))
greater = _binary("greater", jnp.greater, _COMPARE.format("greater"))
greater_equal = _binary("greater_equal", jnp.greater_equal, _COMPARE.format("greater_equal"))
less = _binary("less", jnp.less, _COMPARE.format("less"))
less_equal = _binary("less_equal", jnp.less_equal, _COMPARE.format("less_equal"))
logical_and = _binary("logical_and", jnp.logical_and, _COMPARE.format("logical_and"))
logical_or = _binary("logical_or", jnp.logical_or, _COMPARE.format("logical_or"))
logical_xor = _binary("logical_xor", jnp.logical_xor, _COMPARE.format("logical_xor"))
bitwise_and = _binary("bitwise_and", jnp.bitwise_and, _BITWISE.format("bitwise_and"))
bitwise_or = _binary("bitwise_or", jnp.bitwise_or, _BITWISE.format("bitwise_or"))
bitwise_xor = _binary("bitwise_xor", jnp.bitwise_xor, _BITWISE.format("bitwise_xor"))
left_shift = _binary("left_shift", jnp.left_shift, _BITWISE.format("left_shift"))
right_shift = _binary("right_shift", jnp.right_shift, _BITWISE.format("right_shift"))


# -- unary functions -------------------------------------------------------------------------

def _unary(name, fn, kinds="number", doc=None, differentiable=True):
    pure = op(name)(checked(name, fn))
    pure.differentiable = differentiable

    def apply(x, name=None):
        if composite(x) is not None:
            return x._dispatch_elementwise(apply, x)
        x = as_input(x)
        _check_kind(x, kinds, pure.name)
        if name is not None:
            _tensor_names.given_name(name)
        return pure(x)

    apply.__name__ = name
    apply.__doc__ = doc or f"``{name}(x)`` element-wise."
    return apply


def _check_kind(x, kinds, name):
    dtype = x.dtype
    ok = {"number": dtype.is_numeric,
          "float": dtype.is_floating or dtype.is_complex,
          "bool": dtype.is_bool,
          "integer": dtype.is_integer or dtype.is_bool}[kinds]
    if not ok:
        wanted = {"number": "a numeric", "float": "a floating-point", "bool": "a bool",
                  "integer": "an integer"}[kinds]
        raise unsupported_dtype_error()(f"{name} needs {wanted} tensor. Received dtype {dtype.name}: {x!s}. "
                        "Convert it first with companion.cast.")


@jax.custom_jvp
def _abs(x):
    return jnp.abs(x)


@_abs.defjvp
def _abs_jvp(primals, tangents):
    """TF's gradient of ``abs``: ``sign(x)``, so 0 at 0 (JAX's own gives 1 there); complex as JAX."""
    (x,), (t,) = primals, tangents
    if jnp.iscomplexobj(x):
        return jax.jvp(jnp.abs, (x,), (t,))
    return jnp.abs(x), t * jnp.sign(x).astype(t.dtype)


negative = _unary("negative", jnp.negative)
neg = negative
abs = _unary("abs", _abs)  # noqa: A001 - TensorFlow's public name
sign = _unary("sign", jnp.sign)
square = _unary("square", jnp.square)
sqrt = _unary("sqrt", _gradient_kernels.sqrt, "float")
rsqrt = _unary("rsqrt", _gradient_kernels.rsqrt, "float")
exp = _unary("exp", jnp.exp, "float")
expm1 = _unary("expm1", jnp.expm1, "float")
log = _unary("log", jnp.log, "float")
log1p = _unary("log1p", jnp.log1p, "float")
reciprocal = _unary("reciprocal", _gradient_kernels.reciprocal)  # no integer kernel (`_kernel_dtypes`)
round = _unary("round", jnp.round, doc="Rounds half to even, element-wise (banker's rounding, as TF).",  # noqa: A001
               differentiable=False)  # TF registers no gradient for rounding: tape.gradient gives None
floor = _unary("floor", jnp.floor, "float", differentiable=False)
ceil = _unary("ceil", jnp.ceil, "float", differentiable=False)
sin = _unary("sin", jnp.sin, "float")
cos = _unary("cos", jnp.cos, "float")
tan = _unary("tan", jnp.tan, "float")
asin = _unary("asin", jnp.arcsin, "float")
acos = _unary("acos", jnp.arccos, "float")
atan = _unary("atan", jnp.arctan, "float")
acosh = _unary("acosh", jnp.arccosh, "float")
asinh = _unary("asinh", jnp.arcsinh, "float")
atanh = _unary("atanh", jnp.arctanh, "float")
angle = _unary("angle", jnp.angle, "float",
               "The argument of each complex number (``atan2(imag, real)``); 0 or pi for real numbers.")
sinh = _unary("sinh", jnp.sinh, "float")
cosh = _unary("cosh", jnp.cosh, "float")
tanh = _unary("tanh", _gradient_kernels.tanh, "float")
sigmoid = _unary("sigmoid", jax.nn.sigmoid, "float")
def _softplus(x):
    """TF's kernel: ``x`` above ``-log(eps) - 2``, ``exp(x)`` below ``log(eps) + 2``, else
    ``log1p(exp(x))`` (jax's ``x + log1p(exp(-x))`` rounds differently); each branch is fed clipped
    values so the one not taken has a finite gradient."""
    if jnp.issubdtype(x.dtype, jnp.complexfloating):
        return jax.nn.softplus(x)
    threshold = math.log(float(jnp.finfo(x.dtype).eps)) + 2.0
    middle = jnp.log1p(jnp.exp(jnp.clip(x, threshold, -threshold)))
    return jnp.where(x > -threshold, x, jnp.where(x < threshold, jnp.exp(jnp.minimum(x, threshold)), middle))


def _lgamma(x):
    """``lgamma`` of half and single precision computed in double precision and rounded: XLA's
    single-precision approximation is several units off where TF's (libm's) is within one."""
    if x.dtype in (jnp.float16, jnp.bfloat16, jnp.float32):
        return jax.scipy.special.gammaln(x.astype(jnp.float64)).astype(x.dtype)
    return jax.scipy.special.gammaln(x)


softplus = _unary("softplus", _softplus, "float")
softsign = _unary("softsign", jax.nn.soft_sign, "float")
erf = _unary("erf", jax.scipy.special.erf, "float")
lgamma = _unary("lgamma", _lgamma, "float")
digamma = _unary("digamma", jax.scipy.special.digamma, "float", "The derivative of `lgamma`, element-wise.")
rint = _unary("rint", jnp.rint, "float", "Rounds to the nearest integer, halves to even (a float result).",
              differentiable=False)
log_sigmoid = _unary("log_sigmoid", jax.nn.log_sigmoid, "float",
                     "``log(sigmoid(x))`` computed as ``-softplus(-x)``: finite for large ``|x|``.")
is_nan = _unary("is_nan", jnp.isnan, "float")
is_inf = _unary("is_inf", jnp.isinf, "float")
is_finite = _unary("is_finite", jnp.isfinite, "float")
logical_not = _unary("logical_not", jnp.logical_not, "bool")
invert = _unary("invert", jnp.invert, "integer")
real = _unary("real", jnp.real)
imag = _unary("imag", jnp.imag)
conj = _unary("conj", jnp.conj)


# -- conversions -----------------------------------------------------------------------------

@op("cast", static=("dtype",))
def _cast(x, dtype):
    if jnp.issubdtype(x.dtype, jnp.complexfloating) and not jnp.issubdtype(dtype, jnp.complexfloating):
        x = jnp.real(x)
    if jnp.issubdtype(x.dtype, jnp.floating) and jnp.issubdtype(dtype, jnp.integer):
        return _float_to_integer(x, jnp.dtype(dtype))
    return x.astype(dtype)


def _float_to_integer(x, dtype):
    """TF's float-to-integer cast on CPU: truncation towards zero; a value out of range (or NaN) gives
    what the x86 conversion gives, the most negative int32 (int64 for 64-bit and uint32 targets), and
    narrower integers keep the low bits (``cast(300.0, uint8)`` is 44, ``cast(-1.0, uint8)`` 255), where
    XLA would saturate."""
    x = x.astype(jnp.float32) if x.dtype.itemsize < 4 else x
    wide = dtype.itemsize == 8 or dtype == jnp.uint32
    through, limit = (jnp.int64, 2.0 ** 63) if wide else (jnp.int32, 2.0 ** 31)
    in_range = (x >= -limit) & (x < limit)  # False for NaN
    truncated = jnp.where(in_range, x, 0).astype(through)
    if dtype == jnp.uint64:
        return jnp.where(in_range, truncated.astype(dtype), jnp.asarray(2 ** 63, dtype))
    if dtype == jnp.uint32:
        return jnp.where(in_range, truncated.astype(dtype), jnp.asarray(2 ** 31, dtype))
    edge = jnp.iinfo(through).min
    return jnp.where(in_range, truncated, jnp.asarray(edge, through)).astype(dtype)


def cast(x, dtype, name=None):
    """Converts ``x`` to ``dtype`` (floats to integers truncate towards zero, as TF).

    Example:
        >>> import companion as tf
        >>> print(tf.cast(tf.constant([1.7, -1.7]), tf.int32))
        companion.Tensor([ 1 -1], shape=(2,), dtype=int32)
    """
    target = _dtypes.as_dtype(dtype)
    if composite(x) is not None:
        return x._dispatch_elementwise(cast, x, target)
    x = as_input(x)
    if target == _dtypes.string or x.dtype == _dtypes.string:
        raise UnimplementedTypeError(
            f"cast cannot convert between strings and numbers ({x.dtype.name} to {target.name}). "
            "Use companion.strings.to_number or companion.strings.as_string.")
    if x.dtype == target:
        return x.value() if x._is_variable else x
    if name is not None:
        _tensor_names.given_name(name)
    return _cast(x, dtype=target._np)


@elementwise_dispatch
def clip_by_value(t, clip_value_min, clip_value_max, name=None):
    """Clamps every element of ``t`` into ``[clip_value_min, clip_value_max]``."""
    t = as_input(t)
    return minimum(maximum(t, clip_value_min), clip_value_max)


def scalar_mul(scalar, x, name=None):
    """``scalar * x`` for a scalar ``scalar`` (a Python number or a 0-d tensor)."""
    if hasattr(scalar, "_value") and scalar._v.ndim != 0:
        raise ValueError(f"scalar_mul: scalar must be a 0-d value. Received shape {scalar.shape}.")
    return multiply(scalar, x)


def polyval(coeffs, x, name=None):
    """The polynomial ``coeffs[0] * x**(n-1) + ... + coeffs[n-1]`` at ``x``, by Horner's rule.

    ``coeffs`` is a Python list of tensors or numbers (highest degree first); an empty list
    gives zeros shaped like ``x``.

    Example:
        >>> import companion as tf
        >>> print(tf.math.polyval([1.0, 2.0, 3.0], tf.constant(2.0)))
        companion.Tensor(11.0, shape=(), dtype=float32)
    """
    if not isinstance(coeffs, (list, tuple)):
        raise ValueError(f"polyval: coeffs must be a Python list of coefficients (highest degree first). "
                         f"Received: {type(coeffs).__name__}")
    x = as_input(x)
    if not coeffs:
        return multiply(x, 0)
    total = as_input(coeffs[0], x.dtype) if not hasattr(coeffs[0], "_value") else coeffs[0]
    for c in coeffs[1:]:
        total = add(multiply(total, x), c)
    return total


def accumulate_n(inputs, shape=None, tensor_dtype=None, name=None):
    """The element-wise sum of a list of tensors: `add_n` (TF's deprecated alias)."""
    return add_n(inputs)


@elementwise_dispatch
def add_n(inputs, name=None):
    """The element-wise sum of a list of tensors of one shape and dtype."""
    if not inputs:
        raise ValueError("add_n needs at least one tensor. Received an empty list.")
    total = as_input(inputs[0])
    for item in inputs[1:]:
        total = add(total, item)
    return total
