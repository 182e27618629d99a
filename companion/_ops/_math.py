"""Element-wise math: arithmetic, comparisons, logic, unary functions and `cast`.

Each op is a pure JAX function (`@op`) next to the public function that converts and
checks its inputs with TensorFlow's dtype rules (`binary_inputs`, `as_input`).
"""

import jax
import jax.numpy as jnp

from companion import _dtypes
from companion._convert import as_input, binary_inputs
from companion._op import op

__all__ = [
    "abs", "acos", "add", "add_n", "asin", "atan", "atan2", "bitwise_and", "bitwise_or",
    "bitwise_xor", "cast", "ceil", "clip_by_value", "conj", "cos", "cosh", "divide", "equal", "erf",
    "exp", "expm1", "floor", "floor_div", "floordiv", "floormod", "greater", "greater_equal",
    "imag", "invert", "is_finite", "is_inf", "is_nan", "left_shift", "less", "less_equal", "lgamma",
    "log", "log1p", "logical_and", "logical_not", "logical_or", "logical_xor", "maximum", "minimum",
    "mod", "multiply", "neg", "negative", "not_equal", "pow", "real", "reciprocal", "right_shift",
    "round", "rsqrt", "sigmoid", "sign", "sin", "sinh", "softplus", "softsign", "sqrt", "square",
    "squared_difference", "subtract", "tan", "tanh", "truediv",
]

# -- binary arithmetic ---------------------------------------------------------------------

@op("add")
def _add(x, y):
    return jnp.add(x, y)


@op("subtract")
def _subtract(x, y):
    return jnp.subtract(x, y)


@op("multiply")
def _multiply(x, y):
    return jnp.multiply(x, y)


@op("divide")
def _divide(x, y):
    return jnp.true_divide(x, y)


@op("floordiv")
def _floordiv(x, y):
    return jnp.floor_divide(x, y)


@op("floormod")
def _mod(x, y):
    return jnp.mod(x, y)


@op("pow")
def _pow(x, y):
    return jnp.power(x, y)


@op("maximum")
def _maximum(x, y):
    return jnp.maximum(x, y)


@op("minimum")
def _minimum(x, y):
    return jnp.minimum(x, y)


@op("squared_difference")
def _squared_difference(x, y):
    return jnp.square(x - y)


@op("atan2")
def _atan2(y, x):
    return jnp.arctan2(y, x)


def add(x, y, name=None):
    """``x + y`` element-wise, with broadcasting. Both operands must have one dtype."""
    return _add(*binary_inputs(x, y, "add"))


def subtract(x, y, name=None):
    """``x - y`` element-wise, with broadcasting."""
    return _subtract(*binary_inputs(x, y, "subtract"))


def multiply(x, y, name=None):
    """``x * y`` element-wise, with broadcasting."""
    return _multiply(*binary_inputs(x, y, "multiply"))


def divide(x, y, name=None):
    """``x / y``: true division. Integer inputs give float64 (int8/int16 give float32), as TF."""
    x, y = binary_inputs(x, y, "divide")
    if x.dtype.is_integer or x.dtype.is_bool:
        target = _dtypes.float32 if x.dtype.size <= 2 else _dtypes.float64
        x, y = cast(x, target), cast(y, target)
    return _divide(x, y)


truediv = divide


def floordiv(x, y, name=None):
    """``x // y``: division rounded towards minus infinity."""
    return _floordiv(*binary_inputs(x, y, "floordiv"))


floor_div = floordiv


def mod(x, y, name=None):
    """``x % y`` with the sign of ``y`` (Python's and TensorFlow's ``floormod``)."""
    return _mod(*binary_inputs(x, y, "mod"))


floormod = mod


def pow(x, y, name=None):  # noqa: A001 - TensorFlow's public name
    """``x ** y`` element-wise."""
    return _pow(*binary_inputs(x, y, "pow"))


def maximum(x, y, name=None):
    """The element-wise maximum of ``x`` and ``y``."""
    return _maximum(*binary_inputs(x, y, "maximum"))


def minimum(x, y, name=None):
    """The element-wise minimum of ``x`` and ``y``."""
    return _minimum(*binary_inputs(x, y, "minimum"))


def squared_difference(x, y, name=None):
    """``(x - y) ** 2`` element-wise."""
    return _squared_difference(*binary_inputs(x, y, "squared_difference"))


def atan2(y, x, name=None):
    """The angle of the point ``(x, y)``, element-wise."""
    return _atan2(*binary_inputs(y, x, "atan2"))


# -- comparisons and logic -------------------------------------------------------------------

def _comparison(name, fn):
    pure = op(name)(fn)

    def compare(x, y, name=None):
        return pure(*binary_inputs(x, y, pure.name))

    compare.__name__ = name
    compare.__doc__ = f"``{name}(x, y)`` element-wise, with broadcasting; returns a bool tensor."
    return compare


equal = _comparison("equal", jnp.equal)
not_equal = _comparison("not_equal", jnp.not_equal)
greater = _comparison("greater", jnp.greater)
greater_equal = _comparison("greater_equal", jnp.greater_equal)
less = _comparison("less", jnp.less)
less_equal = _comparison("less_equal", jnp.less_equal)
logical_and = _comparison("logical_and", jnp.logical_and)
logical_or = _comparison("logical_or", jnp.logical_or)
logical_xor = _comparison("logical_xor", jnp.logical_xor)
bitwise_and = _comparison("bitwise_and", jnp.bitwise_and)
bitwise_or = _comparison("bitwise_or", jnp.bitwise_or)
bitwise_xor = _comparison("bitwise_xor", jnp.bitwise_xor)
left_shift = _comparison("left_shift", jnp.left_shift)
right_shift = _comparison("right_shift", jnp.right_shift)
for _f in (bitwise_and, bitwise_or, bitwise_xor, left_shift, right_shift):
    _f.__doc__ = f"``{_f.__name__}(x, y)`` element-wise on integer (or bool) tensors."


# -- unary functions -------------------------------------------------------------------------

def _unary(name, fn, kinds="number", doc=None):
    pure = op(name)(fn)

    def apply(x, name=None):
        x = as_input(x)
        _check_kind(x, kinds, pure.name)
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
        raise TypeError(f"{name} needs {wanted} tensor. Received dtype {dtype.name}: {x!s}. "
                        "Convert it first with companion.cast.")


negative = _unary("negative", jnp.negative)
neg = negative
abs = _unary("abs", jnp.abs)  # noqa: A001 - TensorFlow's public name
sign = _unary("sign", jnp.sign)
square = _unary("square", jnp.square)
sqrt = _unary("sqrt", jnp.sqrt, "float")
rsqrt = _unary("rsqrt", jax.lax.rsqrt, "float")
exp = _unary("exp", jnp.exp, "float")
expm1 = _unary("expm1", jnp.expm1, "float")
log = _unary("log", jnp.log, "float")
log1p = _unary("log1p", jnp.log1p, "float")
reciprocal = _unary("reciprocal", jnp.reciprocal, "float")
round = _unary("round", jnp.round, doc="Rounds half to even, element-wise (banker's rounding, as TF).")  # noqa: A001
floor = _unary("floor", jnp.floor, "float")
ceil = _unary("ceil", jnp.ceil, "float")
sin = _unary("sin", jnp.sin, "float")
cos = _unary("cos", jnp.cos, "float")
tan = _unary("tan", jnp.tan, "float")
asin = _unary("asin", jnp.arcsin, "float")
acos = _unary("acos", jnp.arccos, "float")
atan = _unary("atan", jnp.arctan, "float")
sinh = _unary("sinh", jnp.sinh, "float")
cosh = _unary("cosh", jnp.cosh, "float")
tanh = _unary("tanh", jnp.tanh, "float")
sigmoid = _unary("sigmoid", jax.nn.sigmoid, "float")
softplus = _unary("softplus", jax.nn.softplus, "float")
softsign = _unary("softsign", jax.nn.soft_sign, "float")
erf = _unary("erf", jax.scipy.special.erf, "float")
lgamma = _unary("lgamma", jax.scipy.special.gammaln, "float")
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
    return x.astype(dtype)


def cast(x, dtype, name=None):
    """Converts ``x`` to ``dtype`` (floats to integers truncate towards zero, as TF).

    Example:
        >>> import companion as tf
        >>> print(tf.cast(tf.constant([1.7, -1.7]), tf.int32))
        companion.Tensor([ 1 -1], shape=(2,), dtype=int32)
    """
    target = _dtypes.as_dtype(dtype)
    x = as_input(x)
    if target == _dtypes.string or x.dtype == _dtypes.string:
        raise TypeError(f"cast cannot convert between strings and numbers ({x.dtype.name} to "
                        f"{target.name}). Use companion.strings functions for text.")
    if x.dtype == target:
        return x.value() if x._is_variable else x
    return _cast(x, dtype=target._np)


def clip_by_value(t, clip_value_min, clip_value_max, name=None):
    """Clamps every element of ``t`` into ``[clip_value_min, clip_value_max]``."""
    t = as_input(t)
    return minimum(maximum(t, clip_value_min), clip_value_max)


def add_n(inputs, name=None):
    """The element-wise sum of a list of tensors of one shape and dtype."""
    if not inputs:
        raise ValueError("add_n needs at least one tensor. Received an empty list.")
    total = as_input(inputs[0])
    for item in inputs[1:]:
        total = add(total, item)
    return total
