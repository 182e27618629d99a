"""Tridiagonal matrices: `tridiagonal_solve` and `tridiagonal_matmul` of `companion.linalg`.

A tridiagonal matrix comes in one of TensorFlow's three formats: "compact" (a ``[..., 3, M]``
tensor: superdiagonal, main diagonal, subdiagonal; the superdiagonal's last and the subdiagonal's
first entries are unused), "sequence" (those three ``[..., M]`` tensors) or "matrix" (``[..., M, M]``,
only its three diagonals are read). Both functions build the dense matrix and use the dense kernels:
exact for the small systems of course code, and differentiable in every format.
"""

import jax.numpy as jnp

from companion._core._convert import as_input, binary_inputs
from companion._core._errors import InvalidArgumentError
from companion._core._op import op
from companion._ops._array import stack
from companion._ops._kernel_dtypes import check_matrix_dtype
from companion._ops._linalg import matrix_transpose
from companion._ops._math import conj


def _dense_fn(superdiag, maindiag, subdiag):
    """The ``[..., M, M]`` matrix with these three diagonals."""
    size = maindiag.shape[-1]
    upper = jnp.eye(size, k=1, dtype=maindiag.dtype) * superdiag[..., :, None]
    lower = jnp.eye(size, k=-1, dtype=maindiag.dtype) * subdiag[..., :, None]
    return upper + lower + jnp.eye(size, dtype=maindiag.dtype) * maindiag[..., :, None]


@op("tridiagonal_solve", static=("vector",))
def _solve(diagonals, rhs, vector):
    matrix = _dense_fn(diagonals[..., 0, :], diagonals[..., 1, :], diagonals[..., 2, :])
    solution = jnp.linalg.solve(matrix, rhs[..., None] if vector else rhs)
    # a singular system is all NaN, as TF's kernel leaves it (LU gives a mix of inf and NaN)
    solution = jnp.where(jnp.all(jnp.isfinite(solution), axis=(-2, -1), keepdims=True), solution, jnp.nan)
    return solution[..., 0] if vector else solution


@op("tridiagonal_matmul")
def _matmul(diagonals, rhs):
    return _dense_fn(diagonals[..., 0, :], diagonals[..., 1, :], diagonals[..., 2, :]) @ rhs


def _compact(diagonals, diagonals_format, what):
    """``diagonals`` in the compact format ``[..., 3, M]``, with TF's checks."""
    if diagonals_format == "sequence":
        if not isinstance(diagonals, (list, tuple)) or len(diagonals) != 3:
            count = len(diagonals) if isinstance(diagonals, (list, tuple)) else type(diagonals).__name__
            raise ValueError(f"Expected diagonals to be a sequence of length 3, got {count}")
        return stack(list(diagonals), axis=-2)
    diagonals = as_input(diagonals)
    shape = diagonals._v.shape
    if diagonals_format == "matrix":
        if len(shape) < 2 or shape[-1] != shape[-2]:
            raise ValueError(f"Expected last two dimensions of diagonals to be the same, got {shape}")
        return _from_matrix(diagonals)
    if diagonals_format != "compact":
        raise ValueError(f"Unrecognized diagonals_format: {diagonals_format}")
    if len(shape) < 2:
        raise ValueError(f"{what}: diagonals in the compact format have shape [..., 3, M]. Received {shape}.")
    if shape[-2] != 3:
        raise ValueError(f"Expected 3 diagonals got {shape[-2]}")
    return diagonals


@op("tridiagonal_from_matrix")
def _from_matrix(matrix):
    zero = jnp.zeros(matrix.shape[:-2] + (1,), matrix.dtype)
    superdiag = jnp.concatenate([jnp.diagonal(matrix, 1, -2, -1), zero], axis=-1)
    subdiag = jnp.concatenate([zero, jnp.diagonal(matrix, -1, -2, -1)], axis=-1)
    return jnp.stack([superdiag, jnp.diagonal(matrix, 0, -2, -1), subdiag], axis=-2)


def tridiagonal_solve(diagonals, rhs, diagonals_format="compact", transpose_rhs=False, conjugate_rhs=False,
                      name=None, partial_pivoting=True, perturb_singular=False):
    """Solves ``a @ x = rhs`` for a tridiagonal matrix ``a`` given by ``diagonals`` (module docstring).

    ``rhs`` has shape ``[..., M]`` or ``[..., M, K]`` (``[..., K, M]`` with ``transpose_rhs``);
    ``x`` has the shape of ``rhs`` (of its transpose). A singular ``a`` gives NaN, as in TensorFlow.

    Example:
        >>> import companion as tf
        >>> diagonals = tf.constant([[1.0, 1.0, 0.0], [2.0, 2.0, 2.0], [0.0, 1.0, 1.0]])
        >>> print(tf.linalg.tridiagonal_solve(diagonals, tf.constant([3.0, 4.0, 3.0])))
        companion.Tensor([1. 1. 1.], shape=(3,), dtype=float32)
    """
    compact = _compact(diagonals, diagonals_format, "tridiagonal_solve")
    compact, rhs = binary_inputs(compact, rhs, "TridiagonalSolve")
    check_matrix_dtype("tridiagonal_solve", compact._v.dtype.name)
    if transpose_rhs or (conjugate_rhs and rhs.dtype.is_complex):
        rhs = matrix_transpose(rhs, conjugate=conjugate_rhs) if transpose_rhs else conj(rhs)
    size = compact._v.shape[-1]
    vector = rhs._v.ndim == compact._v.ndim - 1
    rows = rhs._v.shape[-1] if vector else (rhs._v.shape[-2] if rhs._v.ndim >= 2 else None)
    if rows != size:
        raise ValueError(f"Expected number of left-hand sided and right-hand sides to be equal, got {size} "
                         f"and {rows}")
    return _solve(compact, rhs, vector=vector)


def tridiagonal_matmul(diagonals, rhs, diagonals_format="compact", name=None):
    """The product ``a @ rhs`` of a tridiagonal matrix ``a`` given by ``diagonals`` (module docstring)
    and ``rhs`` of shape ``[..., M, N]``.

    Example:
        >>> import companion as tf
        >>> diagonals = tf.constant([[1.0, 1.0, 0.0], [2.0, 2.0, 2.0], [0.0, 1.0, 1.0]])
        >>> print(tf.linalg.tridiagonal_matmul(diagonals, tf.ones((3, 1))))
        companion.Tensor(
        [[3.]
         [4.]
         [3.]], shape=(3, 1), dtype=float32)
    """
    compact = _compact(diagonals, diagonals_format, "tridiagonal_matmul")
    compact, rhs = binary_inputs(compact, rhs, "TridiagonalMatMul")
    check_matrix_dtype("tridiagonal_matmul", compact._v.dtype.name)
    shape = rhs._v.shape
    if len(shape) != compact._v.ndim or shape[-2] != compact._v.shape[-1]:
        raise InvalidArgumentError(
            f"tridiagonal_matmul needs rhs of shape [..., {compact._v.shape[-1]}, N], of the rank of the "
            f"compact diagonals ({compact._v.ndim}). Received shape {shape}.")
    return _matmul(compact, rhs)

