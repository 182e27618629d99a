"""LU factorization: ``tf.linalg.lu`` and the functions that use its ``(lu, p)`` result
(``lu_solve``, ``lu_reconstruct``, ``lu_matrix_inverse``).

As TensorFlow's: ``lu`` packs the unit-lower factor L (below the diagonal) and the upper factor U
of each square matrix in one tensor, and ``p`` is the row permutation (partial pivoting) with
``matrix[p] == L @ U``. A singular matrix raises "Input is not invertible." (eagerly at once,
inside `function` when the program runs), as TF's Lu kernel does.
"""

import collections

import jax
import jax.numpy as jnp

from companion._core._convert import as_input
from companion._core._dtypes import as_dtype
from companion._core._errors import InvalidArgumentError
from companion._core._node_messages import dt_name
from companion._core._op import op
from companion._ops._linalg import _check_pivots, _matrices, checked_on_host

__all__ = ["lu", "lu_matrix_inverse", "lu_reconstruct", "lu_solve"]

# TF's result type (its name shows when printed)
Lu = collections.namedtuple("Lu", ["lu", "p"])


@op("lu", static=("index_dtype",))
def _lu(x, index_dtype):
    packed, _, permutation = jax.lax.linalg.lu(x)
    return packed, permutation.astype(index_dtype)


_lu.differentiable = "Lu"  # TF registers no gradient for Lu: tape.gradient through it raises


@op("min_abs_diagonal")
def _min_abs_diagonal(x):
    return jnp.min(jnp.abs(jnp.diagonal(x, axis1=-2, axis2=-1)))


def lu(input, output_idx_type="int32", name=None):  # noqa: A002
    """``Lu(lu, p)``: the LU factorization with partial pivoting of each square matrix.

    Example:
        >>> import companion as tf
        >>> lu, p = tf.linalg.lu(tf.constant([[1.0, 2.0], [3.0, 4.0]]))
        >>> print(p)
        companion.Tensor([1 0], shape=(2,), dtype=int32)
    """
    index_dtype = as_dtype(output_idx_type)
    if index_dtype.name not in ("int32", "int64"):
        raise InvalidArgumentError(f"Value for attr 'output_idx_type' of {index_dtype.name} is not in the "
                                   "list of allowed values: int32, int64")
    x = as_input(input)
    if x._v.ndim >= 2 and x._v.shape[-1] != x._v.shape[-2]:
        raise InvalidArgumentError(f"Input matrix must be square. (lu: received shape {x.shape}.)")
    x = _matrices(x, "lu", square=True, floating=True, attrs=f", output_idx_type={dt_name(index_dtype)}")
    packed, permutation = _lu(x, index_dtype=index_dtype._np)
    if x._v.size:
        checked_on_host(lambda pivot: _check_pivots(pivot, "lu", "Input is not invertible.", x.shape),
                        _min_abs_diagonal(packed))
    return Lu(packed, permutation)


@op("lu_solve")
def _lu_solve(packed, permutation, rhs):
    permuted = jnp.take_along_axis(rhs, permutation[..., None].astype(jnp.int32), axis=-2)
    lower = jax.lax.linalg.triangular_solve(packed, permuted, left_side=True, lower=True,
                                            unit_diagonal=True)
    return jax.lax.linalg.triangular_solve(packed, lower, left_side=True, lower=False)


def lu_solve(lower_upper, perm, rhs, validate_args=False, name=None):
    """Solves ``matrix @ x = rhs`` for ``x`` given ``(lower_upper, perm)`` = `lu`(matrix)."""
    packed, perm, rhs = _lu_parts(lower_upper, perm, "lu_solve"), as_input(perm), as_input(rhs)
    if rhs._v.ndim < 2 or rhs._v.shape[-2] != packed._v.shape[-1]:
        raise ValueError("`lower_upper.shape[-1]` must equal `rhs.shape[-1]`. (lu_solve: received "
                         f"lower_upper of shape {packed.shape} and rhs of shape {rhs.shape}; rhs must "
                         f"be [..., {packed._v.shape[-1]}, K].)")
    if rhs.dtype != packed.dtype:
        raise InvalidArgumentError(f"lu_solve: rhs must have the dtype of lower_upper "
                                   f"({packed.dtype.name}). Received {rhs.dtype.name}.")
    return _lu_solve(packed, perm, rhs)


@op("lu_reconstruct")
def _lu_reconstruct(packed, permutation):
    n = packed.shape[-1]
    lower = jnp.tril(packed, -1) + jnp.eye(n, dtype=packed.dtype)
    product = lower @ jnp.triu(packed)
    inverse = jnp.argsort(permutation, axis=-1)
    return jnp.take_along_axis(product, inverse[..., None], axis=-2)


def lu_reconstruct(lower_upper, perm, validate_args=False, name=None):
    """The matrix whose `lu` factorization is ``(lower_upper, perm)``."""
    return _lu_reconstruct(_lu_parts(lower_upper, perm, "lu_reconstruct"), as_input(perm))


def lu_matrix_inverse(lower_upper, perm, validate_args=False, name=None):
    """The inverse of the matrix whose `lu` factorization is ``(lower_upper, perm)``."""
    packed = _lu_parts(lower_upper, perm, "lu_matrix_inverse")
    n = packed._v.shape[-1]
    identity = jnp.broadcast_to(jnp.eye(n, dtype=packed.dtype._np), packed._v.shape)
    return _lu_solve(packed, as_input(perm), as_input(identity))


def _lu_parts(lower_upper, perm, what):
    packed, perm = _matrices(lower_upper, what, square=True, floating=True), as_input(perm)
    if not perm.dtype.is_integer or perm._v.shape != packed._v.shape[:-1]:
        raise InvalidArgumentError(f"{what}: perm must be an integer tensor of shape "
                                   f"{list(packed._v.shape[:-1])} (the `p` of companion.linalg.lu). "
                                   f"Received dtype {perm.dtype.name} and shape {list(perm._v.shape)}.")
    return packed
