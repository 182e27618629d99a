"""`LinearOperator`: a matrix (or a batch of them) known by how it acts, so structured ones (diagonal,
triangular, identity) multiply, solve and give determinants without building the dense matrix.

Subclasses say what they are with a few methods (`_shape`, `_to_dense`, `_matmul`, `_solve`,
`_determinant`, ...); the base class gives TensorFlow's public surface on top of them and falls back
to the dense matrix for what a subclass does not specialise. Everything is made of companion ops,
so tapes and `function` see through it.
"""

from companion._core._convert import as_input, constant
from companion._core._dtypes import as_dtype
from companion._core._shape import TensorShape
from companion._ops import _linalg as linalg
from companion._ops._array import expand_dims, squeeze
from companion._ops._math import abs as absolute
from companion._ops._math import conj, log
from companion._ops._reduce import reduce_sum


class LinearOperator:
    """Base class of the linear operators of `companion.linalg` (TensorFlow's ``tf.linalg.LinearOperator``).

    Hints (``is_non_singular``, ``is_self_adjoint``, ``is_positive_definite``, ``is_square``) are
    what the caller promises; ``None`` means unknown.
    """

    def __init__(self, dtype, is_non_singular=None, is_self_adjoint=None, is_positive_definite=None,
                 is_square=None, name=None, parameters=None):
        if is_positive_definite and is_non_singular is False:
            raise ValueError("A positive definite matrix is always non-singular. Received: "
                             "is_positive_definite=True, is_non_singular=False")
        self._dtype = as_dtype(dtype)
        self._is_non_singular = is_non_singular
        self._is_self_adjoint = is_self_adjoint
        self._is_positive_definite = is_positive_definite
        self._is_square = is_square
        self._name = name or type(self).__name__
        self._parameters = dict(parameters or {})

    # -- what the operator is -------------------------------------------------------------------
    @property
    def dtype(self):
        return self._dtype

    @property
    def name(self):
        return self._name

    @property
    def parameters(self):
        return dict(self._parameters)

    @property
    def shape(self):
        """The static shape ``batch_shape + [range_dimension, domain_dimension]``."""
        return TensorShape(self._shape())

    @property
    def batch_shape(self):
        return self.shape[:-2]

    @property
    def tensor_rank(self):
        return self.shape.rank

    @property
    def range_dimension(self):
        return self.shape.dims[-2]

    @property
    def domain_dimension(self):
        return self.shape.dims[-1]

    def shape_tensor(self, name="shape_tensor"):
        return constant(list(self._shape()), dtype="int32")

    @property
    def is_non_singular(self):
        return self._is_non_singular

    @property
    def is_self_adjoint(self):
        return self._is_self_adjoint

    @property
    def is_positive_definite(self):
        return self._is_positive_definite

    @property
    def is_square(self):
        """True/False when the shape tells (or the caller promised), else None."""
        if self._is_square is not None:
            return self._is_square
        rows, cols = self._shape()[-2:]
        return None if rows is None or cols is None else rows == cols

    # -- what it does ---------------------------------------------------------------------------
    def to_dense(self, name="to_dense"):
        """The operator as a dense ``[..., M, N]`` tensor."""
        return self._to_dense()

    def matmul(self, x, adjoint=False, adjoint_arg=False, name="matmul"):
        """``op @ x`` (``adjoint``: ``op^H @ x``; ``adjoint_arg``: ``x^H`` in place of ``x``)."""
        if isinstance(x, LinearOperator):
            raise NotImplementedError(f"{type(self).__name__}.matmul of another operator would build a "
                                      "LinearOperatorComposition, which companion does not implement. "
                                      "Multiply by its dense matrix instead: op.matmul(other.to_dense()).")
        x = self._checked_arg(x, "matmul", adjoint, adjoint_arg)
        return self._matmul(x, adjoint=adjoint, adjoint_arg=adjoint_arg)

    def matvec(self, x, adjoint=False, name="matvec"):
        """``op @ x`` for vectors ``x`` of shape ``[..., N]``."""
        return squeeze(self.matmul(expand_dims(x, -1), adjoint=adjoint), -1)

    def solve(self, rhs, adjoint=False, adjoint_arg=False, name="solve"):
        """``X`` with ``op @ X = rhs`` (``adjoint``: ``op^H @ X = rhs``)."""
        self._check_solvable("solve")
        rhs = self._checked_arg(rhs, "solve", not adjoint, adjoint_arg)
        return self._solve(rhs, adjoint=adjoint, adjoint_arg=adjoint_arg)

    def solvevec(self, rhs, adjoint=False, name="solve"):
        """`solve` for vectors ``rhs`` of shape ``[..., M]``."""
        return squeeze(self.solve(expand_dims(rhs, -1), adjoint=adjoint), -1)

    def determinant(self, name="det"):
        self._check_square("determinant")
        return self._determinant()

    def log_abs_determinant(self, name="log_abs_det"):
        self._check_square("log_abs_determinant")
        return self._log_abs_determinant()

    def diag_part(self, name="diag_part"):
        return self._diag_part()

    def trace(self, name="trace"):
        return reduce_sum(self.diag_part(), axis=-1)

    def adjoint(self, name=None):
        """The conjugate transpose, as an operator."""
        if self.is_self_adjoint:
            return self
        return LinearOperatorAdjoint(self)

    H = property(adjoint)

    def add_to_tensor(self, x, name="add_to_tensor"):
        return self.to_dense() + x

    def __matmul__(self, other):
        return self.matmul(other)

    def __repr__(self):
        shape = tuple(self.shape.as_list())
        return f"<{type(self).__name__} '{self.name}' shape={shape} dtype={self.dtype.name}>"

    # -- defaults from the dense matrix (subclasses specialise) -------------------------------
    def _matmul(self, x, adjoint, adjoint_arg):
        return linalg.matmul(self.to_dense(), x, adjoint_a=adjoint, adjoint_b=adjoint_arg)

    def _solve(self, rhs, adjoint, adjoint_arg):
        rhs = linalg.adjoint(rhs) if adjoint_arg else rhs
        return linalg.solve(self.to_dense(), rhs, adjoint=adjoint)

    def _determinant(self):
        return linalg.det(self.to_dense())

    def _log_abs_determinant(self):
        return linalg.slogdet(self.to_dense())[1]

    def _diag_part(self):
        return linalg.diag_part(self.to_dense())

    # -- checks ----------------------------------------------------------------------------------
    def _checked_arg(self, x, what, adjoint, adjoint_arg):
        x = as_input(x, self.dtype)
        inner = self.range_dimension if adjoint else self.domain_dimension
        rows = x.shape.dims[-1] if adjoint_arg else (x.shape.dims[-2] if x.ndim >= 2 else None)
        if x.ndim < 2 or (inner is not None and rows is not None and rows != inner):
            side = "last" if adjoint_arg else "row"
            raise ValueError(f"{type(self).__name__}.{what}: the argument's {side} dimension must be "
                             f"{inner} (the operator's shape is {self.shape}). Received an argument of shape "
                             f"{x.shape}.")
        return x

    def _check_square(self, what):
        if self.is_square is False:
            raise NotImplementedError(f"{type(self).__name__}.{what} needs a square operator. Received shape "
                                      f"{self.shape}.")

    def _check_solvable(self, what):
        self._check_square(what)
        if self.is_non_singular is False:
            raise NotImplementedError(f"{type(self).__name__}.{what}: the operator was declared singular "
                                      "(is_non_singular=False), so it has no inverse to solve with.")


class LinearOperatorAdjoint(LinearOperator):
    """The conjugate transpose of ``operator``, computed through it (TensorFlow's class)."""

    def __init__(self, operator, is_non_singular=None, is_self_adjoint=None, is_positive_definite=None,
                 is_square=None, name=None):
        self.operator = operator
        hints = [given if given is not None else getattr(operator, hint) for hint, given in (
            ("is_non_singular", is_non_singular), ("is_self_adjoint", is_self_adjoint),
            ("is_positive_definite", is_positive_definite), ("is_square", is_square))]
        super().__init__(operator.dtype, *hints, name or f"{operator.name}_adjoint", {"operator": operator})

    def _shape(self):
        dims = list(self.operator._shape())
        return dims[:-2] + [dims[-1], dims[-2]]

    def _to_dense(self):
        return linalg.adjoint(self.operator.to_dense())

    def _matmul(self, x, adjoint, adjoint_arg):
        return self.operator._matmul(x, adjoint=not adjoint, adjoint_arg=adjoint_arg)

    def _solve(self, rhs, adjoint, adjoint_arg):
        return self.operator._solve(rhs, adjoint=not adjoint, adjoint_arg=adjoint_arg)

    def _determinant(self):
        return conj(self.operator._determinant())

    def _log_abs_determinant(self):
        return self.operator._log_abs_determinant()

    def _diag_part(self):
        return conj(self.operator._diag_part())



def log_abs(x):
    """``log(|x|)`` summed over the last axis: the log-|determinant| of a diagonal or triangular matrix."""
    return reduce_sum(log(absolute(x)), axis=-1)
