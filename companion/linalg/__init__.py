"""`companion.linalg`: TensorFlow's ``tf.linalg`` namespace (products, norms and matrix functions)."""

from companion._ops._clip import global_norm
from companion._ops._creation import eye
from companion._ops._linalg import (
    adjoint,
    band_part,
    cholesky,
    cholesky_solve,
    cross,
    det,
    diag,
    diag_part,
    eig,
    eigh,
    eigvals,
    eigvalsh,
    einsum,
    expm,
    inv,
    logdet,
    logm,
    lstsq,
    matmul,
    matrix_rank,
    matrix_transpose,
    matvec,
    norm,
    normalize,
    pinv,
    qr,
    set_diag,
    slogdet,
    solve,
    sqrtm,
    svd,
    tensor_diag,
    tensor_diag_part,
    tensordot,
    trace,
    triangular_solve,
)
from companion._ops._linalg_lu import lu, lu_matrix_inverse, lu_reconstruct, lu_solve
from companion._ops._linalg_tridiagonal import tridiagonal_matmul, tridiagonal_solve
from companion._ops._nn_normalization import l2_normalize
from companion.linalg._linear_operator import LinearOperator, LinearOperatorAdjoint
from companion.linalg._linear_operator_kinds import (
    LinearOperatorDiag,
    LinearOperatorFullMatrix,
    LinearOperatorIdentity,
    LinearOperatorLowerTriangular,
)

__all__ = [
    "LinearOperator", "LinearOperatorAdjoint", "LinearOperatorDiag", "LinearOperatorFullMatrix",
    "LinearOperatorIdentity", "LinearOperatorLowerTriangular",
    "adjoint", "band_part", "cholesky", "cholesky_solve", "cross", "det", "diag", "diag_part", "eig", "eigh",
    "eigvals", "eigvalsh", "einsum", "expm", "eye", "global_norm", "inv", "l2_normalize", "logdet", "logm",
    "lstsq", "lu", "lu_matrix_inverse", "lu_reconstruct", "lu_solve", "matmul", "matrix_rank",
    "matrix_transpose", "matvec", "norm", "normalize", "pinv", "qr", "set_diag", "slogdet", "solve", "sqrtm",
    "svd", "tensor_diag", "tensor_diag_part", "tensordot", "trace", "triangular_solve",
    "tridiagonal_matmul", "tridiagonal_solve",
]
