"""The structured operators: `LinearOperatorFullMatrix`, `LinearOperatorDiag`,
`LinearOperatorIdentity` and `LinearOperatorLowerTriangular` (TensorFlow's classes and rules)."""

import numpy as np

from companion._core._convert import as_input
from companion._core._dtypes import as_dtype
from companion._ops import _linalg as linalg
from companion._ops._array import broadcast_to, expand_dims
from companion._ops._creation import eye, ones, zeros
from companion._ops._math import conj
from companion._ops._reduce import reduce_prod
from companion.linalg._linear_operator import LinearOperator, log_abs

_FLOATS = ("float16", "bfloat16", "float32", "float64", "complex64", "complex128")


class LinearOperatorFullMatrix(LinearOperator):
    """An operator given by its dense ``[..., M, N]`` matrix.

    Example:
        >>> import companion as tf
        >>> op = tf.linalg.LinearOperatorFullMatrix([[4.0, 1.0], [2.0, 3.0]])
        >>> float(op.determinant()), op.matvec([1.0, -1.0]).numpy().tolist()
        (10.0, [3.0, -1.0])
    """

    def __init__(self, matrix, is_non_singular=None, is_self_adjoint=None, is_positive_definite=None,
                 is_square=None, name="LinearOperatorFullMatrix"):
        self._matrix = _float_tensor(matrix, "matrix", 2, type(self).__name__)
        super().__init__(self._matrix.dtype, is_non_singular, is_self_adjoint, is_positive_definite,
                         is_square, name, {"matrix": matrix})

    def _shape(self):
        return list(self._matrix.shape.dims)

    def _to_dense(self):
        return self._matrix


class LinearOperatorDiag(LinearOperator):
    """A diagonal operator (a batch of them for a ``[..., N]`` ``diag``): products, solves and
    determinants from the diagonal alone.

    Example:
        >>> import companion as tf
        >>> op = tf.linalg.LinearOperatorDiag([2.0, -3.0])
        >>> float(op.determinant()), op.solvevec([1.0, 1.0]).numpy().tolist()
        (-6.0, [0.5, -0.3333333432674408])
    """

    def __init__(self, diag, is_non_singular=None, is_self_adjoint=None, is_positive_definite=None,
                 is_square=True, name="LinearOperatorDiag"):
        what = type(self).__name__
        self._diag = _float_tensor(diag, "diag", 1, what)
        if not self._diag.dtype.is_complex:
            if is_self_adjoint is False:
                raise ValueError(f"{what}: a real diagonal operator is always self-adjoint. Received: "
                                 "is_self_adjoint=False")
            is_self_adjoint = True
        if is_square is False:
            raise ValueError(f"{what}: a diagonal operator is always square. Received: is_square=False")
        super().__init__(self._diag.dtype, is_non_singular, is_self_adjoint, is_positive_definite, True, name,
                         {"diag": diag})

    def _shape(self):
        dims = list(self._diag.shape.dims)
        return dims + dims[-1:]

    def _to_dense(self):
        return linalg.diag(self._diag)

    def _column(self, adjoint):
        return expand_dims(conj(self._diag) if adjoint else self._diag, -1)

    def _matmul(self, x, adjoint, adjoint_arg):
        return self._column(adjoint) * (linalg.adjoint(x) if adjoint_arg else x)

    def _solve(self, rhs, adjoint, adjoint_arg):
        return (linalg.adjoint(rhs) if adjoint_arg else rhs) / self._column(adjoint)

    def _determinant(self):
        return reduce_prod(self._diag, axis=-1)

    def _log_abs_determinant(self):
        return log_abs(self._diag)

    def _diag_part(self):
        return self._diag


class LinearOperatorIdentity(LinearOperator):
    """The ``num_rows x num_rows`` identity (a batch of them with ``batch_shape``); it never builds
    a matrix except for `to_dense`.

    Example:
        >>> import companion as tf
        >>> op = tf.linalg.LinearOperatorIdentity(3, batch_shape=[2])
        >>> op.shape, op.determinant().numpy().tolist()
        (TensorShape([2, 3, 3]), [1.0, 1.0])
    """

    def __init__(self, num_rows, batch_shape=None, dtype=None, is_non_singular=True, is_self_adjoint=True,
                 is_positive_definite=True, is_square=True, assert_proper_shapes=False,
                 name="LinearOperatorIdentity"):
        what = type(self).__name__
        for hint, value in (("is_non_singular", is_non_singular), ("is_self_adjoint", is_self_adjoint),
                            ("is_positive_definite", is_positive_definite), ("is_square", is_square)):
            if value is False:
                raise ValueError(f"{what}: the identity is always non-singular, self-adjoint, positive "
                                 f"definite and square. Received: {hint}=False")
        self._rows = _dimension(num_rows, "num_rows", what)
        self._batch = tuple(_dimension(d, "batch_shape", what) for d in (batch_shape or ()))
        super().__init__(as_dtype("float32" if dtype is None else dtype), True, True, True, True, name,
                         {"num_rows": num_rows, "batch_shape": batch_shape, "dtype": dtype})

    def _shape(self):
        return list(self._batch) + [self._rows, self._rows]

    def _to_dense(self):
        return eye(self._rows, batch_shape=list(self._batch), dtype=self.dtype)

    def _broadcast(self, x):
        dims = tuple(x.shape.as_list())
        shape = np.broadcast_shapes(self._batch, dims[:-2]) + dims[-2:]
        return x if shape == dims else broadcast_to(x, shape)

    def _matmul(self, x, adjoint, adjoint_arg):
        return self._broadcast(linalg.adjoint(x) if adjoint_arg else x)

    def _solve(self, rhs, adjoint, adjoint_arg):
        return self._matmul(rhs, adjoint, adjoint_arg)

    def _determinant(self):
        return ones(list(self._batch), dtype=self.dtype)

    def _log_abs_determinant(self):
        return zeros(list(self._batch), dtype=self.dtype)

    def _diag_part(self):
        return ones(list(self._batch) + [self._rows], dtype=self.dtype)


class LinearOperatorLowerTriangular(LinearOperator):
    """A lower-triangular operator from the lower triangle of ``tril`` (its upper part is ignored):
    solves by substitution, determinants from the diagonal.

    Example:
        >>> import companion as tf
        >>> op = tf.linalg.LinearOperatorLowerTriangular([[4.0, 9.0], [2.0, 3.0]])
        >>> op.to_dense().numpy().tolist(), float(op.determinant())
        ([[4.0, 0.0], [2.0, 3.0]], 12.0)
    """

    def __init__(self, tril, is_non_singular=None, is_self_adjoint=None, is_positive_definite=None,
                 is_square=None, name="LinearOperatorLowerTriangular"):
        what = type(self).__name__
        tril = _float_tensor(tril, "tril", 2, what)
        if is_square is False:
            raise ValueError(f"{what}: a triangular operator is always square. Received: is_square=False")
        dims = tril.shape.dims
        if dims[-1] is not None and dims[-2] is not None and dims[-1] != dims[-2]:
            raise ValueError(f"{what}: tril must be square, [..., N, N]. Received shape {tril.shape}")
        self._tril = linalg.band_part(tril, -1, 0)
        super().__init__(tril.dtype, is_non_singular, is_self_adjoint, is_positive_definite, True, name,
                         {"tril": tril})

    def _shape(self):
        return list(self._tril.shape.dims)

    def _to_dense(self):
        return self._tril

    def _solve(self, rhs, adjoint, adjoint_arg):
        rhs = linalg.adjoint(rhs) if adjoint_arg else rhs
        return linalg.triangular_solve(self._tril, rhs, lower=True, adjoint=adjoint)

    def _determinant(self):
        return reduce_prod(linalg.diag_part(self._tril), axis=-1)

    def _log_abs_determinant(self):
        return log_abs(linalg.diag_part(self._tril))

    def _diag_part(self):
        return linalg.diag_part(self._tril)


def _float_tensor(value, name, min_rank, what):
    tensor = as_input(value)
    if tensor.dtype.name not in _FLOATS:
        raise TypeError(f"{what}: {name} must be a floating or complex tensor ({', '.join(_FLOATS)}). "
                        f"Received dtype {tensor.dtype.name}. Cast it first, e.g. "
                        f"tf.cast({name}, tf.float32).")
    if tensor.shape.rank is not None and tensor.shape.rank < min_rank:
        raise ValueError(f"{what}: {name} must have rank at least {min_rank}. Received shape {tensor.shape}")
    return tensor


def _dimension(value, name, what):
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or int(value) < 0:
        raise ValueError(f"{what}: {name} must hold non-negative ints. Received: {name}={value!r}")
    return int(value)
