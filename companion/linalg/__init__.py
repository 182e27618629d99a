"""`companion.linalg`: TensorFlow's ``tf.linalg`` namespace (products, norms and matrix functions)."""

from companion._ops._clip import global_norm
from companion._ops._creation import eye
from companion._ops._linalg import (
    adjoint,
    band_part,
    cholesky,
    cross,
    det,
    diag,
    diag_part,
    eigh,
    eigvalsh,
    einsum,
    expm,
    inv,
    logdet,
    lstsq,
    matmul,
    matrix_transpose,
    matvec,
    norm,
    normalize,
    pinv,
    qr,
    set_diag,
    slogdet,
    solve,
    svd,
    tensor_diag,
    tensor_diag_part,
    tensordot,
    trace,
    triangular_solve,
)
from companion._ops._linalg_lu import lu, lu_matrix_inverse, lu_reconstruct, lu_solve

__all__ = [
    "adjoint", "band_part", "cholesky", "cross", "det", "diag", "diag_part", "eigh", "eigvalsh", "einsum",
    "expm", "eye", "global_norm", "inv", "logdet", "lstsq", "lu", "lu_matrix_inverse", "lu_reconstruct",
    "lu_solve", "matmul", "matrix_transpose", "matvec", "norm",
    "normalize", "pinv", "qr", "set_diag", "slogdet", "solve", "svd", "tensor_diag", "tensor_diag_part",
    "tensordot", "trace", "triangular_solve",
]
