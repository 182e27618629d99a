"""The dtypes TensorFlow has no kernel for, per op, and the error a call with one of them gets.

TensorFlow registers each op for a list of dtypes: ``tf.add`` on bools, ``tf.pow`` on unsigned
integers or ``tf.matmul`` on int8 raise, where the NumPy-like JAX function computes something.
`checked` wraps an op's pure function so that it raises TF's error for such a dtype. The check
runs when JAX traces the function (once per input dtypes and shapes: an eager op's first
application, a staged function's trace), never on a call that reuses a trace, so the eager hot
path pays nothing.

TF's two errors: ``InvalidArgumentError`` when the op's definition excludes the dtype, and
``NotFoundError`` when the op allows it but no CPU kernel is registered for it. While a
function traces, TF raises ``TypeError`` for the first (the graph refuses the node) and
``InvalidArgumentError`` for the second (the function finds no kernel when it runs).
"""

from companion._core._context import state
from companion._core._dtypes import kernel_name
from companion._core._errors import (
    InvalidArgumentTypeError,
    NotFoundError,
    RuntimeCheckError,
    TracedUnsupportedDtypeError,
)

_FLOAT = ("bfloat16", "float16", "float32", "float64")
_COMPLEX = ("complex64", "complex128")
_SIGNED = ("int8", "int16", "int32", "int64")
_UNSIGNED = ("uint8", "uint16", "uint32", "uint64")
_INTEGER = _SIGNED + _UNSIGNED
_BOOL = ("bool",)

# op name -> (TF's op type, dtypes TF's op definition rejects, dtypes it allows but has no kernel for)
_REJECTED = {
    "add": ("AddV2", _BOOL, ()),
    "subtract": ("Sub", _BOOL, ()),
    "multiply": ("Mul", _BOOL, ()),
    "floordiv": ("FloorDiv", _BOOL, _COMPLEX),
    "floormod": ("FloorMod", _BOOL + _COMPLEX, ()),
    "truncatediv": ("TruncateDiv", _BOOL + _COMPLEX, ()),
    "truncatemod": ("TruncateMod", _BOOL + _COMPLEX, ()),
    "pow": ("Pow", _UNSIGNED + _BOOL, ()),
    "maximum": ("Maximum", _BOOL + _COMPLEX, ()),
    "minimum": ("Minimum", _BOOL + _COMPLEX, ()),
    "squared_difference": ("SquaredDifference", ("int8", "int16") + _UNSIGNED + _BOOL, ()),
    "greater": ("Greater", _BOOL + _COMPLEX, ()),
    "greater_equal": ("GreaterEqual", _BOOL + _COMPLEX, ()),
    "less": ("Less", _BOOL + _COMPLEX, ()),
    "less_equal": ("LessEqual", _BOOL + _COMPLEX, ()),
    "bitwise_and": ("BitwiseAnd", _FLOAT + _COMPLEX + _BOOL, ()),
    "bitwise_or": ("BitwiseOr", _FLOAT + _COMPLEX + _BOOL, ()),
    "bitwise_xor": ("BitwiseXor", _FLOAT + _COMPLEX + _BOOL, ()),
    "left_shift": ("LeftShift", _FLOAT + _COMPLEX + _BOOL, ()),
    "right_shift": ("RightShift", _FLOAT + _COMPLEX + _BOOL, ()),
    "invert": ("Invert", _BOOL, ()),
    "matmul": ("MatMul", ("int8", "int16") + _BOOL, _UNSIGNED),
    "negative": ("Neg", _UNSIGNED, ()),
    "abs": ("Abs", _UNSIGNED, ()),
    "sign": ("Sign", _UNSIGNED, ()),
    "round": ("Round", (), _COMPLEX),
    "floor": ("Floor", _COMPLEX, ()),
    "ceil": ("Ceil", _COMPLEX, ()),
    "reciprocal": ("Reciprocal", _BOOL + _UNSIGNED, _SIGNED),
    "relu": ("Relu", _BOOL + _COMPLEX, ()),
}
# TF's logical ops take bools only: any other dtype is an input of the wrong type
_BOOL_ONLY = {"logical_and": "LogicalAnd", "logical_or": "LogicalOr"}


def checked(name, fn):
    """``fn`` (the pure function of the op called ``name``) raising TF's error for a dtype TF has
    no kernel for, checked on its first operand; ``fn`` itself when TF takes every dtype it does."""
    if name in _BOOL_ONLY:
        return _bool_only(_BOOL_ONLY[name], fn)
    entry = _REJECTED.get(name)
    if entry is None:
        return fn
    tf_name, invalid, missing = entry
    invalid, missing = frozenset(invalid), frozenset(missing)

    def check(x, *rest, **params):
        dtype = getattr(x, "dtype", None)
        dtype_name = getattr(dtype, "name", None)
        if dtype_name in invalid:
            raise unsupported_dtype_error()(
                f"Value for attr 'T' of {kernel_name(dtype_name)} is not in the list of allowed values "
                f"[Op:{tf_name}]: TensorFlow has no {tf_name} for {dtype_name} tensors. Cast the "
                "operands first (companion.cast).")
        if dtype_name in missing:
            # in a function TF finds no kernel when the program runs: InvalidArgumentError there
            raise (RuntimeCheckError if state.staging else NotFoundError)(
                f"Could not find device for node: {{{{node {tf_name}}}}} = "
                f"{tf_name}[T=DT_{dtype_name.upper()}] [Op:{tf_name}]: TensorFlow registers no {tf_name} "
                f"kernel for {dtype_name} tensors. Cast the operands first (companion.cast).")
        return fn(x, *rest, **params)

    check.__name__ = getattr(fn, "__name__", name)
    check.__doc__ = fn.__doc__
    return check


def _bool_only(tf_name, fn):
    def check(x, y):
        for position, operand in enumerate((x, y)):
            dtype_name = getattr(getattr(operand, "dtype", None), "name", "bool")
            if dtype_name != "bool" and dtype_name != "object":
                raise unsupported_dtype_error()(
                    f"cannot compute {tf_name} as input #{position}(zero-based) was expected to be a bool "
                    f"tensor but is a {kernel_name(dtype_name)} tensor [Op:{tf_name}]")
        return fn(x, y)

    check.__name__ = getattr(fn, "__name__", tf_name)
    return check


def unsupported_dtype_error():
    """The class of TF's error for a dtype an op's definition refuses: InvalidArgumentError eagerly,
    TypeError while a function traces (each class also catches as the other)."""
    return TracedUnsupportedDtypeError if state.staging else InvalidArgumentTypeError
