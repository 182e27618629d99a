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
from companion._core._node_messages import dt_name

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
            raise no_kernel_error(tf_name, dtype_name)
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


def no_kernel_error(tf_name, dtype_name, attrs="", node=None):
    """TF's error for a dtype its op ``tf_name`` allows but registers no CPU kernel for: NotFoundError
    eagerly; in a function TF finds no kernel when the program runs, InvalidArgumentError there.
    ``attrs``: the node's other attributes as TF lists them (", adjoint=false"); ``node``: its name
    inside a function (a composite's scope, "logdet/Cholesky"), the op type by default."""
    attrs = f"T={dt_name(dtype_name)}{attrs}"
    hint = (f"\nTensorFlow registers no {tf_name} kernel for {dtype_name} tensors: cast the operands first "
            f"(companion.cast). [Op:{tf_name}]")
    if state.staging:
        return RuntimeCheckError(f"No OpKernel was registered to support Op '{tf_name}' used by "
                                 f"{{{{node {node or tf_name}}}}} with these attrs: [{attrs}]{hint}")
    return NotFoundError(f"Could not find device for node: {{{{node {tf_name}}}}} = {tf_name}[{attrs}]{hint}")


# the dtypes of TF's linear-algebra ops (kernel names, in the order TF lists them)
_HFD = ("half", "float", "double", "complex64", "complex128")
_DFH = ("double", "float", "half", "complex64", "complex128")
_HALF = ("float16",)
_DFC = ("double", "float", "complex64", "complex128")
# tf.linalg function -> (TF's op type, TF's name of the matrix parameter, the dtypes the op's definition
# allows, those it allows but has no CPU kernel for, the node's name inside a function)
_MATRIX_KERNELS = {
    "det": ("MatrixDeterminant", "input", _HFD, _HALF, None),
    "slogdet": ("LogMatrixDeterminant", "input", _HFD, _HALF, None),
    "logdet": ("Cholesky", "input", _DFH, _HALF, "logdet/Cholesky"),
    "inv": ("MatrixInverse", "input", _DFH, (), None),
    "cholesky": ("Cholesky", "input", _DFH, _HALF, None),
    "solve": ("MatrixSolve", "matrix", _DFH, _HALF, None),
    "triangular_solve": ("MatrixTriangularSolve", "matrix", _HFD + ("bfloat16",), ("float16", "bfloat16"),
                         "triangular_solve/MatrixTriangularSolve"),
    "lstsq": ("Cholesky", "input", _DFH, _HALF, "matrix_solve_ls/Cholesky"),
    "lstsq_exact": ("MatrixSolveLs", "matrix", _DFH, _HALF, None),  # fast=False
    "eigh": ("SelfAdjointEigV2", "input", _DFH, _HALF, None),
    "sqrtm": ("MatrixSquareRoot", "input", _DFH, _HALF, None),
    "tridiagonal_solve": ("TridiagonalSolve", "diagonals", _DFC, (), None),
    "tridiagonal_matmul": ("TridiagonalMatMul", "superdiag", _DFC, (), None),
    "logm": ("MatrixLogarithm", "input", ("complex64", "complex128"), (), None),
    "svd": ("Svd", "input", _DFH, _HALF, None),
    "pinv": ("Svd", "input", _DFH + ("bfloat16",), _HALF, "pinv/Svd"),
    "qr": ("Qr", "input", _DFH, (), None),
    "lu": ("Lu", "input", _DFH, _HALF, None),
    "expm": ("MatrixSolve", "matrix", _DFH + ("bfloat16",), _HALF,
             "matrix_exponential/cond/then/_0/matrix_exponential/cond/MatrixSolve"),
}
_TRACED_NAMES = {"half": "float16", "float": "float32", "double": "float64"}


def check_matrix_dtype(what, dtype_name, attrs=""):
    """Raises TF's error when the op behind the tf.linalg function ``what`` has no kernel for
    ``dtype_name`` (float16 and bfloat16 matrices mostly: LAPACK has neither); ``attrs``: the node's
    attributes after ``T`` (", compute_v=true"). Called once per call, before the op runs."""
    entry = _MATRIX_KERNELS.get(what)
    if entry is None:
        return
    tf_name, param, allowed, missing, node = entry
    if dtype_name in missing:
        raise no_kernel_error(tf_name, dtype_name, attrs, node)
    if kernel_name(dtype_name) not in allowed:
        if state.staging:  # TF's graph refuses the node
            listed = ", ".join(_TRACED_NAMES.get(name, name) for name in allowed)
            raise TracedUnsupportedDtypeError(
                f"Value passed to parameter '{param}' has DataType {dtype_name} not in list of allowed "
                f"values: {listed}")
        raise InvalidArgumentTypeError(
            f"Value for attr 'T' of {kernel_name(dtype_name)} is not in the list of allowed values: "
            f"{', '.join(allowed)}\nTensorFlow has no {tf_name} for {dtype_name} tensors: cast the matrix "
            f"first (companion.cast(x, companion.float32)). [Op:{tf_name}]")
