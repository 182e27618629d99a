"""`sparse_dense_matmul`: a sparse matrix times a dense one, one op (a gather of the dense rows and
a segment sum; a tape differentiates it: dense gradients reach the dense matrix and the values)."""

import jax

from companion._core._convert import as_input
from companion._core._errors import InvalidArgumentError
from companion._core._op import op
from companion._ops._array import transpose
from companion._ops._math import conj
from companion.sparse._sparse_tensor import SparseTensor


@op("sparse_dense_matmul", static=("out_rows", "adjoint_a"))
def _product(indices, values, b, out_rows, adjoint_a):
    rows, columns = (indices[:, 1], indices[:, 0]) if adjoint_a else (indices[:, 0], indices[:, 1])
    return jax.ops.segment_sum(values[:, None] * b[columns], rows, num_segments=out_rows)


def _adjoint(tensor):
    return transpose(conj(tensor) if tensor.dtype.is_complex else tensor)


def sparse_dense_matmul(sp_a, b, adjoint_a=False, adjoint_b=False, name=None):
    """``sp_a @ b`` with one side a 2-D SparseTensor and the other a dense matrix; ``adjoint_a`` /
    ``adjoint_b`` (conjugate-)transpose an operand first. The result is dense.

    Example:
        >>> import companion as tf
        >>> sp = tf.SparseTensor([[0, 1], [1, 0]], [2.0, 3.0], [2, 2])
        >>> print(tf.sparse.sparse_dense_matmul(sp, [[1.0, 0.0], [0.0, 1.0]]))
        companion.Tensor(
        [[0. 2.]
         [3. 0.]], shape=(2, 2), dtype=float32)
    """
    if not isinstance(sp_a, SparseTensor):
        if not isinstance(b, SparseTensor):
            raise TypeError("sparse.sparse_dense_matmul needs a SparseTensor operand; for two dense "
                            f"matrices use companion.matmul. Received: {type(sp_a).__name__} and "
                            f"{type(b).__name__}")
        # a @ sp_b = (sp_b^T @ a^T)^T
        return _adjoint(sparse_dense_matmul(b, sp_a, adjoint_a=not adjoint_b, adjoint_b=not adjoint_a))
    if len(sp_a._shape) != 2:
        raise InvalidArgumentError(f"sparse.sparse_dense_matmul: the SparseTensor must be a matrix (rank 2). "
                                   f"Received dense_shape {list(sp_a._shape)}")
    b = as_input(b, sp_a.dtype)
    if b.shape.rank != 2:
        raise InvalidArgumentError(f"sparse.sparse_dense_matmul: the dense operand must be a matrix. "
                                   f"Received shape {b.shape.as_list()}")
    if adjoint_b:
        b = _adjoint(b)
    out_rows, inner = sp_a._shape[::-1] if adjoint_a else sp_a._shape
    values = conj(sp_a.values) if adjoint_a and sp_a.dtype.is_complex else sp_a.values
    if b.shape[0] != inner:
        raise InvalidArgumentError(f"sparse.sparse_dense_matmul: inner dimensions differ: the sparse "
                                   f"operand has {inner} columns, the dense one {b.shape[0]} rows.")
    return _product(sp_a.indices, values, b, out_rows=out_rows, adjoint_a=bool(adjoint_a))
