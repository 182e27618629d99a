"""linalg.LinearOperator{FullMatrix,Diag,Identity,LowerTriangular} against NumPy on their dense
matrices (products, solves, determinants, batches) and gradients against finite differences."""

import numpy as np
import pytest

import companion as tf

RNG = np.random.default_rng(0)
FULL = RNG.normal(size=(2, 3, 3)) + 3 * np.eye(3)
DIAG = RNG.uniform(0.5, 2.0, size=(2, 3)) * np.array([1, -1, 1])
TRIL = np.tril(FULL)
SQUARE, WIDE = np.ones((2, 2), np.float32), np.ones((2, 3), np.float32)


def _operators():
    yield tf.linalg.LinearOperatorFullMatrix(FULL), FULL
    yield tf.linalg.LinearOperatorDiag(DIAG), np.stack([np.diag(d) for d in DIAG])
    yield tf.linalg.LinearOperatorIdentity(3, batch_shape=[2], dtype=tf.float64), np.stack([np.eye(3)] * 2)
    yield tf.linalg.LinearOperatorLowerTriangular(FULL), TRIL  # the upper part of FULL is ignored


@pytest.mark.parametrize("index", range(4))
def test_operator_matches_its_dense_matrix(index):
    op, dense = list(_operators())[index]
    x = RNG.normal(size=(2, 3, 4))
    assert op.shape == (2, 3, 3) and op.batch_shape == (2,) and op.domain_dimension == 3
    np.testing.assert_allclose(op.to_dense().numpy(), dense)
    np.testing.assert_allclose(op.matmul(x).numpy(), dense @ x, rtol=1e-10)
    np.testing.assert_allclose(op.matmul(x, adjoint=True).numpy(), np.swapaxes(dense, -1, -2) @ x, rtol=1e-10)
    np.testing.assert_allclose(op.matmul(np.swapaxes(x, -1, -2), adjoint_arg=True).numpy(), dense @ x,
                               rtol=1e-10)
    np.testing.assert_allclose(op.matvec(x[..., 0]).numpy(), (dense @ x)[..., 0], rtol=1e-10)
    np.testing.assert_allclose(op.solve(x).numpy(), np.linalg.solve(dense, x), rtol=1e-8)
    np.testing.assert_allclose(op.solve(x, adjoint=True).numpy(),
                               np.linalg.solve(np.swapaxes(dense, -1, -2), x), rtol=1e-8)
    np.testing.assert_allclose(op.solvevec(x[..., 1]).numpy(), np.linalg.solve(dense, x[..., 1:2])[..., 0],
                               rtol=1e-8)
    np.testing.assert_allclose(op.determinant().numpy(), np.linalg.det(dense), rtol=1e-8)
    np.testing.assert_allclose(op.log_abs_determinant().numpy(), np.linalg.slogdet(dense)[1], rtol=1e-8,
                               atol=1e-12)
    np.testing.assert_allclose(op.trace().numpy(), np.trace(dense, axis1=-2, axis2=-1), rtol=1e-10)
    np.testing.assert_allclose(op.adjoint().to_dense().numpy(), np.swapaxes(dense, -1, -2))
    np.testing.assert_allclose((op @ x).numpy(), dense @ x, rtol=1e-10)


def test_hints():
    full = tf.linalg.LinearOperatorFullMatrix(np.ones((2, 3), np.float32))
    assert full.is_square is False and full.is_self_adjoint is None
    assert tf.linalg.LinearOperatorDiag([1.0, 2.0]).is_self_adjoint is True
    identity = tf.linalg.LinearOperatorIdentity(2)
    assert identity.is_non_singular and identity.is_positive_definite and identity.dtype == tf.float32
    assert type(full.adjoint()).__name__ == "LinearOperatorAdjoint" and full.adjoint().shape == (3, 2)


def test_gradients_through_solve_and_log_abs_determinant():
    base = np.array([[2.0, 0.0], [1.0, 3.0]])
    rhs = np.array([[1.0, 2.0], [3.0, 4.0]])

    def loss(matrix):
        return (np.linalg.solve(np.tril(matrix), rhs).sum() + np.log(abs(np.linalg.det(matrix)))
                + (np.diag(np.diag(matrix)) @ rhs).sum())

    t = tf.Variable(base)
    with tf.GradientTape() as tape:
        y = (tf.reduce_sum(tf.linalg.LinearOperatorLowerTriangular(t).solve(rhs))
             + tf.linalg.LinearOperatorFullMatrix(t).log_abs_determinant()
             + tf.reduce_sum(tf.linalg.LinearOperatorDiag(tf.linalg.diag_part(t)).matmul(rhs)))
    h = 1e-6
    expected = np.zeros_like(base)
    for i, j in np.ndindex(2, 2):
        step = np.zeros_like(base)
        step[i, j] = h
        expected[i, j] = (loss(base + step) - loss(base - step)) / (2 * h)
    np.testing.assert_allclose(tape.gradient(y, t).numpy(), expected, rtol=1e-6, atol=1e-8)


@pytest.mark.parametrize("call, error", [
    (lambda: tf.linalg.LinearOperatorFullMatrix([1.0, 2.0]), ValueError),
    (lambda: tf.linalg.LinearOperatorDiag(1.0), ValueError),
    (lambda: tf.linalg.LinearOperatorFullMatrix([[1, 2], [3, 4]]), TypeError),
    (lambda: tf.linalg.LinearOperatorIdentity(-1), ValueError),
    (lambda: tf.linalg.LinearOperatorDiag([1.0, 2.0], is_self_adjoint=False), ValueError),
    (lambda: tf.linalg.LinearOperatorFullMatrix(SQUARE).matmul(np.ones((3, 2), np.float32)), ValueError),
    (lambda: tf.linalg.LinearOperatorFullMatrix(WIDE).determinant(), NotImplementedError),
])
def test_errors(call, error):
    with pytest.raises(error):
        call()
