"""Keras 3's linear-algebra ops (``keras.ops.linalg``): decompositions, solves and norms on the last
two axes, each a table row over ``jax.numpy.linalg`` (integer inputs computed in float32)."""

import jax
import jax.numpy as jnp

from companion.keras.ops._base import define


def _cholesky(x, upper):
    lower = jnp.linalg.cholesky(x)
    return jnp.conj(jnp.swapaxes(lower, -1, -2)) if upper else lower


def _cholesky_inverse(x, upper):
    factor = jnp.conj(jnp.swapaxes(x, -1, -2)) if upper else x
    eye = jnp.broadcast_to(jnp.eye(x.shape[-1], dtype=x.dtype), x.shape)
    inverse = jax.scipy.linalg.solve_triangular(factor, eye, lower=True)
    return jnp.conj(jnp.swapaxes(inverse, -1, -2)) @ inverse


def _lstsq(a, b, rcond):
    solution = jnp.linalg.lstsq(a, b, rcond=rcond)[0]
    return solution


def _lu_factor(x):
    lu, pivots = jax.scipy.linalg.lu_factor(x)
    return lu, pivots.astype(jnp.int32)


def _matrix_rank(x, tol):
    return jnp.linalg.matrix_rank(x, tol).astype(jnp.int32)


def _svd(x, full_matrices, compute_uv):
    out = jnp.linalg.svd(x, full_matrices=full_matrices, compute_uv=compute_uv)
    return tuple(out) if compute_uv else out


# name: (pure function, signature)
_TABLE = {
    "cholesky": (_cholesky, "x | upper=False"),
    "cholesky_inverse": (_cholesky_inverse, "x | upper=False"),
    "det": (jnp.linalg.det, "x"),
    "eig": (lambda x: tuple(jnp.linalg.eig(x)), "x"),
    "eigh": (lambda x: tuple(jnp.linalg.eigh(x)), "x"),
    "inv": (jnp.linalg.inv, "x"),
    "lstsq": (_lstsq, "a, b | rcond=None"),
    "lu_factor": (_lu_factor, "x"),
    "matrix_rank": (_matrix_rank, "x | tol=None"),
    "norm": (lambda x, **kw: jnp.linalg.norm(x, **kw), "x | ord=None, axis=None, keepdims=False"),
    "pinv": (lambda x, rcond: jnp.linalg.pinv(x, rtol=rcond), "x | rcond=None"),
    "qr": (lambda x, mode: tuple(jnp.linalg.qr(x, mode=mode)), "x | mode='reduced'"),
    "slogdet": (lambda x: tuple(jnp.linalg.slogdet(x)), "x"),
    "solve": (jnp.linalg.solve, "a, b"),
    "solve_triangular": (lambda a, b, lower: jax.scipy.linalg.solve_triangular(a, b, lower=lower),
                         "a, b | lower=False"),
    "svd": (_svd, "x | full_matrices=True, compute_uv=True"),
}

OPS = {name: define(name, fn, spec, "float", jit=name != "eig") for name, (fn, spec) in _TABLE.items()}
