"""Linear algebra: matmul, tensordot, einsum, norm, and the matrix functions of `companion.linalg`."""

import collections
import numbers

import jax
import jax.numpy as jnp
import jax.scipy.linalg  # noqa: F401 - jax.scipy.linalg.lu_factor
import numpy as np

from companion._core import _tensor_names
from companion._core._convert import as_input, binary_inputs
from companion._core._errors import InvalidArgumentError, RuntimeCheckError
from companion._core._node_messages import broadcast_mismatch, dt_name, node_message
from companion._core._op import op
from companion._core._tensor import Tensor
from companion._ops._array import one_dtype, reshape, transpose
from companion._ops._debugging import run_check
from companion._ops._kernel_dtypes import check_matrix_dtype, checked, unsupported_dtype_error
from companion._ops._math import cast, divide, greater
from companion._ops._reduce import reduce_max, reduce_sum
from companion._ops._shape_hints import multiply_instead_hint
from companion._ops._static import normalize_axis, static_array, static_ints

__all__ = [
    "adjoint", "cholesky", "det", "diag", "diag_part", "einsum", "inv", "matmul", "matrix_transpose",
    "matvec", "norm", "slogdet", "solve", "tensordot", "trace", "eig", "eigvals", "matrix_square_root",
]
# the functions after trace are in tf.linalg only (not at TensorFlow's top level)


# -- products -------------------------------------------------------------------------------

def _matmul_fn(a, b):
    return jnp.matmul(a, b)


def _matmul_transposed_fn(a, b, flags):
    transpose_a, transpose_b, conjugate_a, conjugate_b = flags
    a = jnp.conj(a) if conjugate_a else a
    b = jnp.conj(b) if conjugate_b else b
    return jnp.matmul(jnp.swapaxes(a, -1, -2) if transpose_a else a,
                      jnp.swapaxes(b, -1, -2) if transpose_b else b)


# TF has no MatMul for int8/int16/bool or unsigned integers (`_kernel_dtypes`)
_matmul = op("matmul")(checked("matmul", _matmul_fn))
_matmul_transposed = op("matmul_transposed", static=("flags",))(checked("matmul", _matmul_transposed_fn))


def matmul(a, b, transpose_a=False, transpose_b=False, adjoint_a=False, adjoint_b=False,
           a_is_sparse=False, b_is_sparse=False, output_type=None, name=None):
    """The matrix product ``a @ b`` over the last two dimensions; leading (batch) dimensions broadcast.

    ``transpose_*`` transposes the last two dimensions of an operand first, ``adjoint_*``
    also conjugates it. Both operands must have one dtype.

    Example:
        >>> import companion as tf
        >>> print(tf.matmul(tf.ones((2, 3)), tf.ones((3, 4))).shape)
        (2, 4)
    """
    a, b = binary_inputs(a, b, "matmul")
    flags = (bool(transpose_a or adjoint_a), bool(transpose_b or adjoint_b), bool(adjoint_a), bool(adjoint_b))
    sa, sb = a._v.shape, b._v.shape
    if len(sa) < 2 or len(sb) < 2 or sa[-1 - flags[0]] != sb[-2 + flags[1]] or (
            sa[:-2] != sb[:-2] and not _broadcastable(sa[:-2], sb[:-2])):
        if name is not None:
            _tensor_names.given_name(name)
        raise _matmul_error(sa, sb, flags, a, b)
    if name is not None:
        _tensor_names.given_name(name)
    out = _matmul_transposed(a, b, flags=flags) if any(flags) else _matmul(a, b)
    return out if output_type is None else cast(out, output_type)


def _broadcastable(*shapes):
    try:
        np.broadcast_shapes(*shapes)
    except ValueError:
        return False
    return True


def _matmul_error(sa, sb, flags, a, b):
    traced = _traced_matmul_message(sa, sb, flags, a, b)
    if traced is not None:  # TF's message, then companion's hint
        hint = multiply_instead_hint(sa, sb) if len(sa) < 2 or len(sb) < 2 else multiply_instead_hint(
            sa, sb, flags[:2])
        return InvalidArgumentError(traced + hint)
    if len(sa) < 2 or len(sb) < 2:
        return InvalidArgumentError(
            f"matmul needs two tensors of rank >= 2 (matrices or batches of matrices). Received shapes "
            f"{sa} and {sb}. For a vector use companion.linalg.matvec, companion.tensordot, or "
            "companion.expand_dims to make it a 1-row matrix." + multiply_instead_hint(sa, sb))
    return InvalidArgumentError(
        f"Matrix size-incompatible: In[0]: {list(sa)}, In[1]: {list(sb)} (transpose_a={flags[0]}, "
        f"transpose_b={flags[1]}). The columns of a must equal the rows of b, and batch dimensions "
        "must broadcast. Transpose or reshape an operand so that they do."
        + multiply_instead_hint(sa, sb, flags[:2]))


def _traced_matmul_message(sa, sb, flags, a, b):
    """TF's shape-inference message for matmul's operands while a function traces (its node is
    ``MatMul`` for two matrices, ``BatchMatMulV2`` for batches), or None outside one."""
    if len(sa) < 2 or len(sb) < 2:
        rank = min(len(sa), len(sb))
        core = f"Shape must be rank 2 but is rank {rank}" if max(len(sa), len(sb)) <= 2 else (
            f"Shape must be at least rank 2 but is rank {rank}")
    elif sa[-1 - flags[0]] != sb[-2 + flags[1]]:
        core = f"Dimensions must be equal, but are {sa[-1 - flags[0]]} and {sb[-2 + flags[1]]}"
    else:
        core = broadcast_mismatch(sa[:-2], sb[:-2])
    if core is None:
        return None
    true = ("false", "true")
    if len(sa) == 2 and len(sb) == 2 or min(len(sa), len(sb)) < 2 and max(len(sa), len(sb)) <= 2:
        op_type = "MatMul"
        attrs = (f"T={dt_name(a.dtype)}, grad_a=false, grad_b=false, transpose_a={true[flags[0]]}, "
                 f"transpose_b={true[flags[1]]}")
    else:
        op_type = "BatchMatMulV2"
        attrs = (f"T={dt_name(a.dtype)}, adj_x={true[flags[0]]}, adj_y={true[flags[1]]}, grad_x=false, "
                 "grad_y=false")
    return node_message(core, "matmul", [(a, "a"), (b, "b")], attrs, op_type=op_type)


@op("matvec", static=("transpose_a", "conjugate_a"))
def _matvec(a, b, transpose_a, conjugate_a):
    a = jnp.conj(a) if conjugate_a else a
    return jnp.matmul(jnp.swapaxes(a, -1, -2) if transpose_a else a, b[..., None])[..., 0]


def matvec(a, b, transpose_a=False, adjoint_a=False, a_is_sparse=False, b_is_sparse=False, name=None):
    """The matrix-vector product of ``a`` (``[..., M, N]``) and ``b`` (``[..., N]``)."""
    a, b = binary_inputs(a, b, "matvec")
    transpose_a = bool(transpose_a or adjoint_a)
    sa, sb = a._v.shape, b._v.shape
    if len(sa) < 2 or len(sb) < 1 or sa[-1 - transpose_a] != sb[-1]:
        raise InvalidArgumentError(f"matvec: a must be a matrix [..., M, N] and b a vector [..., N] of "
                                   f"matching N. Received shapes {sa} and {sb}.")
    return _matvec(a, b, transpose_a=transpose_a, conjugate_a=bool(adjoint_a))


@op("tensordot", static=("axes",))
def _tensordot(a, b, axes):
    return jnp.tensordot(a, b, axes=axes)


def tensordot(a, b, axes, name=None):
    """Sums the products of ``a`` and ``b`` over the given axes.

    ``axes`` is an int ``n`` (the last ``n`` axes of ``a`` with the first ``n`` of ``b``)
    or a pair of axis lists ``[axes_a, axes_b]`` of one length.

    Example:
        >>> import companion as tf
        >>> print(tf.tensordot(tf.ones((2, 3)), tf.ones((3, 4)), axes=1).shape)
        (2, 4)
    """
    a, b = binary_inputs(a, b, "tensordot")
    sa, sb = a._v.shape, b._v.shape
    pair = _tensordot_axes(axes, len(sa), len(sb))
    if [sa[i] for i in pair[0]] != [sb[i] for i in pair[1]]:
        raise InvalidArgumentError(
            f"tensordot: the summed dimensions must match, but a (shape {sa}) has sizes "
            f"{[sa[i] for i in pair[0]]} on axes {list(pair[0])} and b (shape {sb}) has "
            f"{[sb[i] for i in pair[1]]} on axes {list(pair[1])}. Received: axes={axes!r}")
    return _tensordot(a, b, axes=pair)


def _tensordot_axes(axes, rank_a, rank_b):
    array = static_array(axes, "tensordot: axes")
    if array.ndim == 0:
        n = int(array)
        if not 0 <= n <= min(rank_a, rank_b):
            raise InvalidArgumentError(f"tensordot: axes={n} must be in [0, {min(rank_a, rank_b)}] for "
                                       f"tensors of rank {rank_a} and {rank_b}.")
        return tuple(range(rank_a - n, rank_a)), tuple(range(n))
    if len(array) != 2 or (array.ndim == 2 and array.shape[1] == 0) or array.ndim > 2:
        raise InvalidArgumentError(f"tensordot: axes must be an int or a pair [axes_a, axes_b] of "
                                   f"equal-length lists. Received: axes={axes!r}")
    first, second = (np.atleast_1d(part) for part in array)
    return (tuple(normalize_axis(i, rank_a, "tensordot") for i in first),
            tuple(normalize_axis(i, rank_b, "tensordot") for i in second))


@op("einsum", static=("equation",))
def _einsum(*xs, equation):
    return jnp.einsum(equation, *xs)


def einsum(equation, *inputs, **kwargs):
    """Products and sums written in Einstein notation, e.g. ``"ij,jk->ik"`` for a matmul.

    Example:
        >>> import companion as tf
        >>> print(tf.einsum("bi,bi->b", tf.ones((2, 3)), tf.ones((2, 3))))
        companion.Tensor([3. 3.], shape=(2,), dtype=float32)
    """
    tensors = one_dtype(list(inputs), "einsum")
    expected = equation.split("->")[0].count(",") + 1
    if expected != len(tensors):
        raise InvalidArgumentError(f"einsum: the equation {equation!r} names {expected} operand(s), "
                                   f"but {len(tensors)} were passed. Pass one tensor per operand.")
    try:
        return _einsum(*tensors, equation=equation)
    except (ValueError, TypeError) as error:
        shapes = [t._v.shape for t in tensors]
        raise InvalidArgumentError(f"einsum: the equation {equation!r} does not fit operands of shapes "
                                   f"{shapes}: {error}") from None


# -- norms ----------------------------------------------------------------------------------

@op("norm", static=("ord", "axis", "keepdims"))
def _norm(x, ord, axis, keepdims):  # noqa: A002 - TensorFlow's argument name
    if isinstance(axis, tuple):
        return jnp.linalg.norm(x, ord="fro" if ord == "euclidean" else ord, axis=axis, keepdims=keepdims)
    return jnp.linalg.vector_norm(x, ord=2 if ord == "euclidean" else ord, axis=axis, keepdims=keepdims)


def norm(tensor, ord="euclidean", axis=None, keepdims=None, name=None):  # noqa: A002
    """The vector norm of ``tensor`` (all of it, or along an int ``axis``), or a matrix norm.

    Vector norms (``axis`` None or an int): ``"euclidean"``, ``1``, ``2``, ``np.inf``
    or any ``p > 0``. Matrix norms (``axis`` a pair of axes): ``"euclidean"``/``"fro"``
    (Frobenius), ``1``, ``2`` (largest singular value), ``np.inf``.

    Example:
        >>> import companion as tf
        >>> print(tf.norm(tf.constant([3.0, 4.0])))
        companion.Tensor(5.0, shape=(), dtype=float32)
    """
    tensor = as_input(tensor)
    rank = tensor._v.ndim
    axes = None if axis is None else tuple(
        normalize_axis(a, rank, "norm") for a in static_ints(axis, "norm: axis"))
    if axes is not None and len(axes) == 2:
        if axes[0] == axes[1] or ord not in ("euclidean", "fro", 1, 2, np.inf):
            raise ValueError(f"norm: a matrix norm needs two different axes and ord in 'euclidean', "
                             f"'fro', 1, 2, np.inf. Received: ord={ord!r}, axis={axis!r}")
        return _norm(tensor, ord=ord, axis=axes, keepdims=bool(keepdims))
    if axes is not None and len(axes) != 1:
        raise ValueError(f"norm: axis must be None, an int (vector norm) or a pair of ints (matrix "
                         f"norm). Received: axis={axis!r}")
    if not (ord == "euclidean" or (isinstance(ord, numbers.Real) and not isinstance(ord, bool) and ord > 0)):
        raise ValueError(f"norm: a vector norm needs ord 'euclidean', 1, 2, np.inf or another "
                         f"number > 0 ('fro' is for matrices: pass a pair of axes). Received: ord={ord!r}")
    return _norm(tensor, ord=ord, axis=axes if axes is None else axes[0], keepdims=bool(keepdims))


# -- matrix functions -----------------------------------------------------------------------

def matrix_transpose(a, name="matrix_transpose", conjugate=False):
    """Swaps the last two dimensions of ``a`` (conjugating too when ``conjugate``)."""
    a = as_input(a)
    rank = a._v.ndim
    if rank < 2:
        raise InvalidArgumentError(f"matrix_transpose needs a tensor of rank >= 2. Received shape "
                                   f"{a._v.shape}. Use companion.transpose or expand_dims for vectors.")
    return transpose(a, perm=tuple(range(rank - 2)) + (rank - 1, rank - 2), conjugate=conjugate)


def adjoint(matrix, name=None):
    """The conjugate transpose of the last two dimensions."""
    return matrix_transpose(matrix, conjugate=True)


@op("trace")
def _trace(x):
    return jnp.trace(x, axis1=-2, axis2=-1)


def trace(x, name=None):
    """The sum of the main diagonal of each matrix in the last two dimensions."""
    return _trace(_matrices(x, "trace"))


@op("diag_part", static=("k",))
def _diag_part(x, k):
    return jnp.diagonal(x, offset=k, axis1=-2, axis2=-1)


def diag_part(input, name="diag_part", k=0, padding_value=0, align="RIGHT_LEFT"):  # noqa: A002
    """The ``k``-th diagonal of each matrix in the last two dimensions (``k > 0``: above)."""
    return _diag_part(_matrices(input, "diag_part"), k=int(k))


@op("diag")
def _diag(x):
    return jnp.where(jnp.eye(x.shape[-1], dtype=bool), x[..., :, None], jnp.zeros((), x.dtype))


def diag(diagonal, name="diag", k=0, num_rows=-1, num_cols=-1, padding_value=0, align="RIGHT_LEFT"):
    """Square matrices with ``diagonal`` (``[..., N]``) on their main diagonal, zeros elsewhere.

    Only the main diagonal (``k=0``) is supported.
    """
    diagonal = as_input(diagonal)
    if int(k) != 0 or diagonal._v.ndim < 1:
        raise InvalidArgumentError(f"diag builds matrices from a tensor of rank >= 1 on the main diagonal "
                                   f"(k=0) only. Received: k={k!r}, shape {diagonal._v.shape}.")
    return _diag(diagonal)


def _matrices(x, what, square=False, floating=False, kernel=None, attrs=""):
    """``x`` as a tensor of matrices, checked: shape, and with ``floating`` a float or complex dtype
    that TF's op behind ``kernel`` (default ``what``; `check_matrix_dtype`) has a kernel for."""
    x = as_input(x)
    shape = x._v.shape
    if len(shape) < 2 or (square and shape[-1] != shape[-2]):
        kind = "square matrices" if square else "matrices"
        raise InvalidArgumentError(f"{what} needs {kind} in the last two dimensions (shape [..., N, N]"
                                   f"{'' if square else ' or [..., M, N]'}). Received shape {shape}.")
    if floating and not (x.dtype.is_floating or x.dtype.is_complex):
        # TF's op definitions refuse the dtype: InvalidArgumentError eagerly, TypeError in a function
        raise unsupported_dtype_error()(
            f"{what} needs a float or complex tensor. Received dtype {x.dtype.name}: {x!s}. "
            "Convert it first with companion.cast(x, companion.float32).")
    if floating:
        check_matrix_dtype(kernel or what, x._v.dtype.name, attrs)
    return x


@op("inv")
def _inv(x):
    return jnp.linalg.inv(_widened(x)).astype(x.dtype)


def _widened(x):
    """float16 matrices as float32 for LAPACK, which has no half precision (TF's MatrixInverse and Qr
    take float16; the result is rounded back)."""
    return x.astype(jnp.float32) if x.dtype == jnp.float16 else x


def inv(input, adjoint=False, name=None):  # noqa: A002
    """The inverse of each square matrix (of its adjoint when ``adjoint``).

    A matrix whose LU factorization (partial pivoting) has a zero (or NaN) pivot raises
    ``InvalidArgumentError`` "Input is not invertible.", as TensorFlow does: eagerly at once,
    inside `function` when the program runs (a host check of the pivots).
    """
    x = _matrices(input, "inv", square=True, floating=True)
    _check_invertible(x, "inv", "Input is not invertible.")
    return _inv(matrix_transpose(x, conjugate=True) if adjoint else x)


@op("min_abs_pivot")
def _min_abs_pivot(x):
    lu, _ = jax.scipy.linalg.lu_factor(_widened(x))
    return jnp.min(jnp.abs(jnp.diagonal(lu, axis1=-2, axis2=-1)))


def _check_invertible(x, what, tf_message):
    """TF's check that every matrix of ``x`` is invertible (no zero or NaN pivot in its LU
    factorization); on a traced ``x`` it runs when the program does (`run_check`)."""
    if x._v.size:
        shape = x.shape
        checked_on_host(lambda pivot: _check_pivots(pivot, what, tf_message, shape), _min_abs_pivot(x))


def checked_on_host(check, pivot):
    """``check(pivot)`` now for a concrete ``pivot``; for a traced one, a host call when the program
    runs, made only when the pivot is not positive (a regular matrix costs no host call)."""
    if not pivot.is_traced:
        return run_check(check, pivot)

    def fail(value):
        run_check(check, Tensor(value))
        return value

    jax.lax.cond(pivot._value > 0, lambda value: value, fail, pivot._value)


def _check_pivots(pivot, what, tf_message, shape):
    """Raises TF's error (``tf_message``) unless ``pivot``, the smallest |pivot| of an LU
    factorization, is positive (a NaN pivot is no pivot either)."""
    if not pivot > 0:
        raise RuntimeCheckError(
            f"{tf_message} ({what}: a zero pivot in the LU factorization of a matrix of the input of "
            f"shape {shape}: it is singular. Check how the matrix is built, or add a small multiple of "
            "the identity (companion.eye) to make it invertible.)")


@op("det")
def _det(x):
    return jnp.linalg.det(x)


def det(input, name=None):  # noqa: A002
    """The determinant of each square matrix in the last two dimensions."""
    return _det(_matrices(input, "det", square=True, floating=True))


@op("slogdet")
def _slogdet(x):
    return tuple(jnp.linalg.slogdet(x))


# TF's result types (their names show when printed)
LogMatrixDeterminant = collections.namedtuple("LogMatrixDeterminant", ["sign", "log_abs_determinant"])
Qr = collections.namedtuple("Qr", ["q", "r"])


def slogdet(input, name=None):  # noqa: A002
    """``(sign, log_abs_determinant)`` of each square matrix, stable for large determinants."""
    return LogMatrixDeterminant(*_slogdet(_matrices(input, "slogdet", square=True, floating=True)))


@op("cholesky")
def _cholesky(x):
    return jnp.linalg.cholesky(x)


def cholesky(input, name=None):  # noqa: A002
    """The lower-triangular Cholesky factor ``L`` of each symmetric positive-definite matrix (``L L^H``)."""
    return _cholesky(_matrices(input, "cholesky", square=True, floating=True))


@op("solve")
def _solve(matrix, rhs):
    return jnp.linalg.solve(matrix, rhs)


def solve(matrix, rhs, adjoint=False, name=None):
    """Solves ``matrix @ x = rhs`` for ``x`` (``rhs`` has shape ``[..., N, K]``)."""
    matrix = _matrices(matrix, "solve", square=True, floating=True, attrs=f", adjoint={_flag(adjoint)}")
    matrix, rhs = binary_inputs(matrix, rhs, "solve")
    rhs = _matrices(rhs, "solve (rhs)")
    if rhs._v.shape[-2] != matrix._v.shape[-1]:
        raise InvalidArgumentError(f"solve: rhs must have shape [..., {matrix._v.shape[-1]}, K] to "
                                   f"match the matrix. Received shapes {matrix._v.shape} and "
                                   f"{rhs._v.shape}.")
    _check_invertible(matrix, "solve", "Input matrix is not invertible.")
    return _solve(matrix_transpose(matrix, conjugate=True) if adjoint else matrix, rhs)


def _flag(value):
    """A boolean attribute as TF's node messages print it."""
    return "true" if value else "false"


# -- bands and diagonals ----------------------------------------------------------------------

@op("band_part", static=("num_lower", "num_upper"))
def _band_part(x, num_lower, num_upper):
    rows = jnp.arange(x.shape[-2])[:, None]
    cols = jnp.arange(x.shape[-1])[None, :]
    keep = ((num_lower < 0) | (rows - cols <= num_lower)) & ((num_upper < 0) | (cols - rows <= num_upper))
    return jnp.where(keep, x, jnp.zeros((), x.dtype))


def band_part(input, num_lower, num_upper, name=None):  # noqa: A002
    """Keeps a band around the main diagonal of each matrix and zeroes the rest.

    ``num_lower`` subdiagonals and ``num_upper`` superdiagonals are kept; a negative count
    keeps that whole triangle (``band_part(m, 0, -1)`` is the upper triangle).

    Example:
        >>> import companion as tf
        >>> print(tf.linalg.band_part(tf.ones((3, 3)), 0, -1))
        companion.Tensor(
        [[1. 1. 1.]
         [0. 1. 1.]
         [0. 0. 1.]], shape=(3, 3), dtype=float32)
    """
    x = _matrices(input, "band_part")
    lower = static_ints(num_lower, "band_part: num_lower")
    upper = static_ints(num_upper, "band_part: num_upper")
    return _band_part(x, num_lower=lower[0], num_upper=upper[0])


@op("set_diag", static=("k",))
def _set_diag(x, diagonal, k):
    rows, cols = x.shape[-2], x.shape[-1]
    length = diagonal.shape[-1]
    i = jnp.arange(length) + max(-k, 0)
    j = jnp.arange(length) + max(k, 0)
    mask = jnp.zeros((rows, cols), bool).at[i, j].set(True)
    spread = jnp.zeros(x.shape, x.dtype).at[..., i, j].set(diagonal)
    return jnp.where(mask, spread, x)


def set_diag(input, diagonal, name="set_diag", k=0, align="RIGHT_LEFT"):  # noqa: A002
    """A copy of ``input`` with its ``k``-th diagonal replaced by ``diagonal`` (``[..., L]``)."""
    x = _matrices(input, "set_diag")
    x, diagonal = binary_inputs(x, diagonal, "set_diag")
    k = int(k)
    rows, cols = x._v.shape[-2:]
    length = max(0, min(rows + min(k, 0), cols - max(k, 0)))
    want = x._v.shape[:-2] + (length,)
    if diagonal._v.shape != want:
        raise InvalidArgumentError(f"set_diag: the diagonal k={k} of matrices of shape {x._v.shape} "
                                   f"needs values of shape {want}. Received shape {diagonal._v.shape}.")
    return _set_diag(x, diagonal, k=k)


def tensor_diag_part(input, name=None):  # noqa: A002
    """The diagonal of a rank-2k tensor of shape ``[d1..dk, d1..dk]``: ``out[i..] = input[i.., i..]``."""

    x = as_input(input)
    shape = x._v.shape
    half = len(shape) // 2
    if len(shape) % 2 or shape[:half] != shape[half:]:
        raise InvalidArgumentError(f"tensor_diag_part needs a tensor of shape [d1..dk, d1..dk] (even rank, "
                                   f"the two halves equal). Received shape {shape}.")
    size = int(np.prod(shape[:half], dtype=np.int64))
    return reshape(_diag_part(reshape(x, (size, size)), k=0), shape[:half])


def tensor_diag(diagonal, name=None):
    """The rank-2k tensor of shape ``[d1..dk, d1..dk]`` with ``diagonal`` (shape ``[d1..dk]``) on its
    diagonal and zeros elsewhere: ``out[i.., i..] = diagonal[i..]`` (`tensor_diag_part` inverted)."""
    x = as_input(diagonal)
    shape = x._v.shape
    size = int(np.prod(shape, dtype=np.int64))
    return reshape(diag(reshape(x, (size,))), shape + shape)


# -- decompositions -------------------------------------------------------------------------

@op("qr", static=("full_matrices",))
def _qr(x, full_matrices):
    return tuple(part.astype(x.dtype) for part in jnp.linalg.qr(_widened(x), mode="complete" if full_matrices
                                                                 else "reduced"))


def qr(input, full_matrices=False, name=None):  # noqa: A002
    """The QR decomposition ``input = q @ r`` of each matrix: ``(q, r)``, ``q`` orthonormal columns,
    ``r`` upper triangular (``full_matrices`` gives a square ``q``)."""
    return Qr(*_qr(_matrices(input, "qr", floating=True), full_matrices=bool(full_matrices)))


@op("svd", static=("full_matrices", "compute_uv"))
def _svd(x, full_matrices, compute_uv):
    if not compute_uv:
        return jnp.linalg.svd(x, compute_uv=False)
    u, s, vh = jnp.linalg.svd(x, full_matrices=full_matrices)
    return s, u, jnp.conj(jnp.swapaxes(vh, -1, -2))


def svd(tensor, full_matrices=False, compute_uv=True, name=None):
    """The singular value decomposition ``tensor = u @ diag(s) @ adjoint(v)``.

    Returns ``s`` alone when ``compute_uv`` is false, else ``(s, u, v)`` in TensorFlow's order
    (``v``, not its adjoint); ``s`` is in decreasing order.
    """
    attrs = f", compute_uv={_flag(compute_uv)}, full_matrices={_flag(full_matrices)}"
    return _svd(_matrices(tensor, "svd", floating=True, attrs=attrs), full_matrices=bool(full_matrices),
                compute_uv=bool(compute_uv))


@op("eigh")
def _eigh(x):
    return tuple(jnp.linalg.eigh(x))


@op("eigvalsh")
def _eigvalsh(x):
    return jnp.linalg.eigvalsh(x)


def eigh(tensor, name=None):
    """``(eigenvalues, eigenvectors)`` of each self-adjoint matrix, eigenvalues ascending."""
    return _eigh(_matrices(tensor, "eigh", square=True, floating=True, attrs=", compute_v=true"))


def eigvalsh(tensor, name=None):
    """The eigenvalues of each self-adjoint matrix, in ascending order."""
    return _eigvalsh(_matrices(tensor, "eigvalsh", square=True, floating=True, kernel="eigh",
                               attrs=", compute_v=false"))


@op("pinv", static=("rcond",))
def _pinv(x, rcond):
    return jnp.linalg.pinv(x, rtol=rcond)


def pinv(a, rcond=None, validate_args=False, name=None):
    """The Moore-Penrose pseudo-inverse of each matrix, from its SVD.

    Singular values below ``rcond * max(singular values)`` count as 0; the default ``rcond``
    is ``10 * max(rows, cols) * eps`` of the dtype, as in TensorFlow.
    """
    x = _matrices(a, "pinv", floating=True, attrs=", compute_uv=true, full_matrices=false")
    if rcond is None:
        rcond = 10.0 * max(x._v.shape[-2:]) * float(np.finfo(x._v.dtype).eps)
    return _pinv(x, rcond=float(rcond))


@op("logdet")
def _logdet(x):
    chol = jnp.linalg.cholesky(x)
    return 2.0 * jnp.sum(jnp.log(jnp.real(jnp.diagonal(chol, axis1=-2, axis2=-1))), axis=-1)


def logdet(matrix, name=None):
    """``log(det(matrix))`` of each Hermitian positive-definite matrix, from its Cholesky factor."""
    return _logdet(_matrices(matrix, "logdet", square=True, floating=True))


@op("expm")
def _expm(x):
    return jax.scipy.linalg.expm(x)


def expm(input, name=None):  # noqa: A002
    """The matrix exponential of each square matrix."""
    x = _matrices(input, "expm", square=True, floating=True, attrs=", adjoint=false")
    if x._v.dtype.name == "bfloat16":  # TF's Python check, in either mode
        raise ValueError("tf.linalg.expm does not support matrices of type <dtype: 'bfloat16'>")
    return _expm(x)



@op("eig")
def _eig(x):
    return tuple(jnp.linalg.eig(x))


@op("eigvals")
def _eigvals(x):
    return jnp.linalg.eigvals(x)


def _general_matrices(tensor, what):
    """``tensor`` checked for `eig`/`eigvals`: square float32/float64/complex matrices (TF's Eig)."""
    x = as_input(tensor)
    if x._v.dtype.name not in ("float32", "float64", "complex64", "complex128"):
        raise TypeError(f"{what} needs a float32, float64, complex64 or complex128 tensor (TensorFlow's Eig "
                        f"has no other kernel). Received dtype {x.dtype.name}. Convert it first with "
                        "companion.cast(x, companion.float32).")
    return _matrices(x, what, square=True)


def eig(tensor, name=None):
    """``(eigenvalues, eigenvectors)`` of each square matrix, not necessarily self-adjoint.

    Both are complex (complex64 for float32 and complex64 input, complex128 otherwise); the
    eigenvectors are the columns, of unit norm, in LAPACK's order (as TensorFlow's).

    Example:
        >>> import companion as tf
        >>> e, v = tf.linalg.eig(tf.constant([[2.0, 0.0], [0.0, 3.0]]))
        >>> print(e)
        companion.Tensor([2.+0.j 3.+0.j], shape=(2,), dtype=complex64)
    """
    return _eig(_general_matrices(tensor, "eig"))


def eigvals(tensor, name=None):
    """The (complex) eigenvalues of each square matrix; see `eig`."""
    return _eigvals(_general_matrices(tensor, "eigvals"))


def _sqrtm_fn(x):
    root = jnp.vectorize(jax.scipy.linalg.sqrtm, signature="(n,n)->(n,n)")(x)
    return root.astype(x.dtype) if jnp.iscomplexobj(x) else jnp.real(root).astype(x.dtype)


@jax.custom_vjp
def _sqrtm_grad_fn(x):
    return _sqrtm_fn(x)


def _sqrtm_forward(x):
    root = _sqrtm_fn(x)
    return root, root


def _sqrtm_backward(root, cotangent):
    # root @ root = x, so d(x) = root d(root) + d(root) root; the cotangent of x is the X solving
    # root^H X + X root^H = cotangent (a Sylvester equation, as a linear system of n^2 unknowns)
    n = root.shape[-1]
    eye = jnp.eye(n, dtype=root.dtype)
    root_h = jnp.conj(jnp.swapaxes(root, -1, -2))
    system = (jnp.einsum("...ij,kl->...ikjl", root_h, eye) + jnp.einsum("ij,...lk->...ikjl", eye, root_h))
    system = system.reshape(root.shape[:-2] + (n * n, n * n))
    flat = jnp.linalg.solve(system, cotangent.reshape(root.shape[:-2] + (n * n, 1)))
    return (flat.reshape(root.shape),)


_sqrtm_grad_fn.defvjp(_sqrtm_forward, _sqrtm_backward)
_sqrtm = op("sqrtm")(_sqrtm_grad_fn)


def sqrtm(input, name=None):  # noqa: A002
    """The principal square root ``s`` (``s @ s == input``) of each square matrix, from its Schur form.

    Example:
        >>> import companion as tf
        >>> print(tf.linalg.sqrtm(tf.constant([[4.0, 0.0], [0.0, 9.0]])))
        companion.Tensor(
        [[2. 0.]
         [0. 3.]], shape=(2, 2), dtype=float32)
    """
    return _sqrtm(_matrices(input, "sqrtm", square=True, floating=True))


matrix_square_root = sqrtm


@op("logm")
def _logm(x):
    values, vectors = jnp.linalg.eig(x)
    return (vectors * jnp.log(values)[..., None, :]) @ jnp.linalg.inv(vectors)


_logm.differentiable = "MatrixLogarithm"  # TF registers no gradient: tape.gradient through it raises


def logm(input, name=None):  # noqa: A002
    """The principal matrix logarithm of each square complex matrix (``expm(logm(x)) == x``).

    Like TensorFlow, only complex64 and complex128 matrices are taken: convert a real one with
    ``companion.complex(x, companion.zeros_like(x))``. Computed from the eigendecomposition, so the
    matrix must be diagonalizable.
    """
    return _logm(_matrices(input, "logm", square=True, floating=True))


@op("singular_values")
def _singular_values(x):
    return jnp.linalg.svd(x, compute_uv=False)


def matrix_rank(a, tol=None, validate_args=False, name=None):
    """The number of singular values of each matrix above ``tol`` (int32).

    The default ``tol`` is ``max(singular values) * max(rows, cols) * eps`` of the dtype, per matrix.

    Example:
        >>> import companion as tf
        >>> print(tf.linalg.matrix_rank(tf.constant([[1.0, 2.0], [2.0, 4.0]])))
        companion.Tensor(1, shape=(), dtype=int32)
    """
    x = as_input(a)
    if not x.dtype.is_floating:
        raise TypeError(f"Input `a` must have `float`-like `dtype` (saw {x.dtype.name}).")
    x = _matrices(x, "matrix_rank", floating=True, kernel="svd",
                  attrs=", compute_uv=false, full_matrices=false")
    values = _singular_values(x)
    if tol is None:
        eps = float(np.finfo(x._v.dtype).eps)
        tol = reduce_max(values, axis=-1, keepdims=True) * (max(x._v.shape[-2:]) * eps)
    return reduce_sum(cast(greater(values, tol), jnp.int32), axis=-1)


# -- solves -----------------------------------------------------------------------------------

@op("triangular_solve", static=("lower", "adjoint"))
def _triangular_solve(matrix, rhs, lower, adjoint):
    shape = jnp.broadcast_shapes(matrix.shape[:-2], rhs.shape[:-2])
    matrix = jnp.broadcast_to(matrix, shape + matrix.shape[-2:])
    rhs = jnp.broadcast_to(rhs, shape + rhs.shape[-2:])
    return jax.lax.linalg.triangular_solve(matrix, rhs, left_side=True, lower=lower,
                                           transpose_a=adjoint, conjugate_a=adjoint)


def triangular_solve(matrix, rhs, lower=True, adjoint=False, name=None):
    """Solves ``matrix @ x = rhs`` for a triangular ``matrix`` (only its ``lower`` or upper
    triangle is read); ``adjoint`` solves with the matrix's adjoint instead."""
    matrix = _matrices(matrix, "triangular_solve", square=True, floating=True,
                       attrs=f", adjoint={_flag(adjoint)}, lower={_flag(lower)}")
    matrix, rhs = binary_inputs(matrix, rhs, "triangular_solve")
    rhs = _matrices(rhs, "triangular_solve (rhs)")
    if rhs._v.shape[-2] != matrix._v.shape[-1]:
        raise InvalidArgumentError(f"triangular_solve: rhs must have shape [..., {matrix._v.shape[-1]}, "
                                   f"K] to match the matrix. Received shapes {matrix._v.shape} and "
                                   f"{rhs._v.shape}.")
    return _triangular_solve(matrix, rhs, lower=bool(lower), adjoint=bool(adjoint))


def cholesky_solve(chol, rhs, name=None):
    """Solves ``a @ x = rhs`` given ``chol``, the lower-triangular Cholesky factor of ``a`` (`cholesky`):
    two triangular solves, ``chol @ y = rhs`` then ``adjoint(chol) @ x = y``.

    Example:
        >>> import companion as tf
        >>> a = tf.constant([[4.0, 0.0], [0.0, 9.0]])
        >>> print(tf.linalg.cholesky_solve(tf.linalg.cholesky(a), tf.constant([[8.0], [18.0]])))
        companion.Tensor(
        [[2.]
         [2.]], shape=(2, 1), dtype=float32)
    """
    inner = triangular_solve(chol, rhs, lower=True, adjoint=False)
    return triangular_solve(chol, inner, lower=True, adjoint=True)


@op("lstsq", static=("l2",))
def _lstsq(matrix, rhs, l2):
    rows, cols = matrix.shape[-2:]
    adjoint = jnp.conj(jnp.swapaxes(matrix, -1, -2))
    if rows >= cols:  # the regularized normal equations, as TF's fast path
        gram = adjoint @ matrix + l2 * jnp.eye(cols, dtype=matrix.dtype)
        return jnp.linalg.solve(gram, adjoint @ rhs)
    gram = matrix @ adjoint + l2 * jnp.eye(rows, dtype=matrix.dtype)
    return adjoint @ jnp.linalg.solve(gram, rhs)


def lstsq(matrix, rhs, l2_regularizer=0.0, fast=True, name=None):
    """The ``x`` minimizing ``||matrix @ x - rhs||^2 + l2_regularizer * ||x||^2`` for each matrix.

    Solved through the normal equations (TensorFlow's ``fast=True`` path): for an
    underdetermined system it is the minimum-norm solution.
    """
    matrix = _matrices(matrix, "lstsq", floating=True, kernel="lstsq" if fast else "lstsq_exact",
                       attrs="" if fast else ", fast=false")
    matrix, rhs = binary_inputs(matrix, rhs, "lstsq")
    rhs = _matrices(rhs, "lstsq (rhs)")
    if rhs._v.shape[-2] != matrix._v.shape[-2]:
        raise InvalidArgumentError(f"lstsq: rhs must have shape [..., {matrix._v.shape[-2]}, K] (the "
                                   f"matrix's rows). Received shapes {matrix._v.shape} and "
                                   f"{rhs._v.shape}.")
    if not fast:
        raise NotImplementedError("lstsq: only fast=True (the normal equations) is supported.")
    return _lstsq(matrix, rhs, l2=float(l2_regularizer))


# -- vectors ----------------------------------------------------------------------------------

@op("cross")
def _cross(a, b):
    return jnp.cross(a, b)


def cross(a, b, name=None):
    """The cross product of 3-vectors in the last dimension of ``a`` and ``b`` (same shape)."""
    a, b = binary_inputs(a, b, "cross")
    if a._v.shape != b._v.shape or not a._v.shape or a._v.shape[-1] != 3:
        raise InvalidArgumentError(f"cross needs two tensors of one shape [..., 3]. Received shapes "
                                   f"{a._v.shape} and {b._v.shape}.")
    return _cross(a, b)


def normalize(tensor, ord="euclidean", axis=None, name=None):  # noqa: A002
    """``(tensor / norm, norm)``: ``tensor`` scaled to unit `norm` (same ``ord``/``axis``);
    ``norm`` keeps the reduced dimensions (size 1).

    Example:
        >>> import companion as tf
        >>> unit, length = tf.linalg.normalize(tf.constant([3.0, 4.0]))
        >>> print(unit)
        companion.Tensor([0.6 0.8], shape=(2,), dtype=float32)
        >>> print(length)
        companion.Tensor([5.], shape=(1,), dtype=float32)
    """

    tensor = as_input(tensor)
    length = norm(tensor, ord=ord, axis=axis, keepdims=True)
    return divide(tensor, length), length
