"""tf.linalg's functions of general (not self-adjoint) matrices and the solves added with them: eig,
eigvals, sqrtm, logm, matrix_rank, cholesky_solve, tridiagonal_solve/matmul, against TF 2.21's
printed values, with gradients where TF has them and TF's error classes."""

import numpy as np
import pytest
import scipy.linalg

import companion as tf
from tests.checks import check_gradient, check_op

A = [[4.0, 1.0], [2.0, 3.0]]
SPD = [[4.0, 2.0], [2.0, 3.0]]
COMPACT = [[1.0, 2.0, 0.0], [4.0, 5.0, 6.0], [0.0, 7.0, 8.0]]  # superdiagonal, diagonal, subdiagonal


def test_eig_values_vectors_dtypes():
    values, vectors = tf.linalg.eig(tf.constant(A))
    # TF 2.21: [5, 2] (LAPACK's order), unit eigenvectors [[0.7071068, -0.44721362], [0.7071068, 0.8944272]]
    np.testing.assert_allclose(values.numpy(), [5.0, 2.0], rtol=1e-6)
    np.testing.assert_allclose(vectors.numpy(), [[0.7071068, -0.44721362], [0.7071068, 0.8944272]], rtol=1e-6)
    assert values.dtype == tf.complex64 and vectors.dtype == tf.complex64
    assert tf.eig(tf.constant(A, tf.float64))[0].dtype == tf.complex128
    assert tf.linalg.eigvals(tf.complex(tf.constant(A), tf.constant(A))).dtype == tf.complex64
    np.testing.assert_allclose(tf.eigvals(tf.constant(A)).numpy(), [5.0, 2.0], rtol=1e-6)


def test_eig_batched_matches_numpy(rng):
    m = rng.normal(size=(3, 4, 4))
    values = tf.linalg.eigvals(tf.constant(m)).numpy()
    for got, want in zip(values, np.linalg.eigvals(m)):
        np.testing.assert_allclose(np.sort_complex(got), np.sort_complex(want), rtol=1e-10)


def test_eig_errors():
    with pytest.raises(TypeError, match="float32, float64"):
        tf.linalg.eig(tf.constant([[1, 2], [3, 4]]))
    with pytest.raises(TypeError):
        tf.linalg.eigvals(tf.constant(A, tf.float16))
    with pytest.raises(tf.errors.InvalidArgumentError, match="square"):
        tf.linalg.eig(tf.ones((2, 3)))
    with pytest.raises(tf.errors.InvalidArgumentError):
        tf.linalg.eigvals(tf.ones((3,)))


def test_eigvals_gradient_of_real_part():
    x = tf.constant(SPD)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.reduce_sum(tf.math.real(tf.linalg.eigvals(x)))
    # TF 2.21: the identity (the trace's gradient)
    np.testing.assert_allclose(tape.gradient(y, x).numpy(), np.eye(2), atol=1e-6)


def test_sqrtm_values_and_alias():
    # TF 2.21: [[1.919366, 0.5621693], [0.5621693, 1.6382813]]; non-symmetric A: [[1.9621162, 0.27395135],
    # [0.5479028, 1.6881647]]
    np.testing.assert_allclose(tf.linalg.sqrtm(tf.constant(SPD)).numpy(),
                               [[1.919366, 0.5621693], [0.5621693, 1.6382813]], rtol=1e-5)
    np.testing.assert_allclose(tf.matrix_square_root(tf.constant(A)).numpy(),
                               [[1.9621162, 0.27395135], [0.5479028, 1.6881647]], rtol=1e-5)
    assert tf.linalg.sqrtm(tf.constant(SPD)).dtype == tf.float32


def test_sqrtm_batched_and_traced(rng):
    m = rng.normal(size=(2, 3, 3))
    m = m @ np.swapaxes(m, -1, -2) + 3 * np.eye(3)
    check_op(tf.linalg.sqrtm, lambda x: np.stack([scipy.linalg.sqrtm(y) for y in x]), m, rtol=1e-8)
    traced = tf.function(tf.linalg.sqrtm)(tf.constant(m)).numpy()
    np.testing.assert_allclose(traced @ traced, m, rtol=1e-8)


def test_sqrtm_gradient_tf_value():
    x = tf.constant(SPD)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.reduce_sum(tf.linalg.sqrtm(x))
    # TF 2.21: [[0.19808328, 0.2131132], [0.21311322, 0.23206899]]
    want = [[0.19808328, 0.2131132], [0.21311322, 0.23206899]]
    np.testing.assert_allclose(tape.gradient(y, x).numpy(), want, rtol=1e-5)


def test_sqrtm_gradient_non_symmetric(rng):
    m = rng.normal(size=(3, 3)) + 4 * np.eye(3)
    check_gradient(tf.linalg.sqrtm, m)


def test_sqrtm_errors():
    with pytest.raises(tf.errors.InvalidArgumentError):
        tf.linalg.sqrtm(tf.constant([[1, 2], [3, 4]]))
    with pytest.raises(tf.errors.NotFoundError):  # TF registers no half kernel
        tf.linalg.sqrtm(tf.constant(A, tf.float16))
    with pytest.raises(tf.errors.InvalidArgumentError, match="square"):
        tf.linalg.sqrtm(tf.ones((2, 3)))


def test_logm():
    spd = tf.constant(SPD)
    got = tf.linalg.logm(tf.complex(spd, tf.zeros_like(spd)))
    # TF 2.21: [[1.2037126, 0.65596807], [0.6559682, 0.8757286]] (complex64)
    assert got.dtype == tf.complex64
    np.testing.assert_allclose(got.numpy(), [[1.2037126, 0.65596807], [0.6559682, 0.8757286]], rtol=1e-5)
    np.testing.assert_allclose(tf.linalg.expm(got).numpy(), SPD, rtol=1e-5)
    with pytest.raises(tf.errors.InvalidArgumentError, match="complex64, complex128"):
        tf.linalg.logm(spd)  # TF: complex matrices only
    x = tf.complex(spd, tf.zeros_like(spd))
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.math.real(tf.reduce_sum(tf.linalg.logm(x)))
    with pytest.raises(LookupError):  # TF registers no gradient for MatrixLogarithm
        tape.gradient(y, x)


def test_matrix_rank():
    # TF 2.21: 1; 2 per batch of identities: [3, 3]; with tol=0.01: 1; int32
    rank = tf.linalg.matrix_rank(tf.constant([[1.0, 2.0], [2.0, 4.0]]))
    assert rank.dtype == tf.int32 and int(rank) == 1
    assert tf.linalg.matrix_rank(tf.eye(3, batch_shape=[2])).numpy().tolist() == [3, 3]
    assert int(tf.linalg.matrix_rank(tf.constant([[1.0, 0.0], [0.0, 1e-3]]), tol=0.01)) == 1
    assert int(tf.function(tf.linalg.matrix_rank)(tf.constant(SPD))) == 2
    with pytest.raises(TypeError, match="float"):
        tf.linalg.matrix_rank(tf.constant([[1, 2], [2, 4]]))
    x = tf.constant(SPD)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.cast(tf.linalg.matrix_rank(x), tf.float32)
    assert tape.gradient(y, x) is None  # TF 2.21: None


def test_cholesky_solve(rng):
    spd, rhs = tf.constant(SPD), tf.constant([[1.0], [2.0]])
    # TF 2.21: [[-0.125], [0.75]]
    np.testing.assert_allclose(tf.linalg.cholesky_solve(tf.linalg.cholesky(spd), rhs).numpy(),
                               [[-0.125], [0.75]], rtol=1e-5)
    with tf.GradientTape() as tape:
        tape.watch(spd)
        y = tf.reduce_sum(tf.linalg.cholesky_solve(tf.linalg.cholesky(spd), rhs))
    # TF 2.21: [[0.015625, -0.03125], [-0.03125, -0.1875]]
    np.testing.assert_allclose(tape.gradient(y, spd).numpy(), [[0.015625, -0.03125], [-0.03125, -0.1875]],
                               rtol=1e-5, atol=1e-7)
    chol = np.tril(rng.normal(size=(2, 3, 3))) + 3 * np.eye(3)
    check_op(tf.linalg.cholesky_solve, lambda c, b: np.linalg.solve(c @ np.swapaxes(c, -1, -2), b),
             chol, rng.normal(size=(2, 3, 2)), rtol=1e-8)
    with pytest.raises(tf.errors.InvalidArgumentError):
        tf.linalg.cholesky_solve(tf.linalg.cholesky(spd), tf.ones((3, 1)))
    with pytest.raises(tf.errors.InvalidArgumentError):
        tf.linalg.cholesky_solve(tf.constant([[1, 0], [1, 1]]), tf.constant([[1], [1]]))


def test_l2_normalize_in_linalg():
    assert tf.linalg.l2_normalize(tf.constant([3.0, 4.0])).numpy().tolist() == pytest.approx([0.6, 0.8])


def test_tridiagonal_solve_formats():
    b = tf.constant([1.0, 2.0, 3.0])
    want = [0.5714285, -1.2857141, 2.2142856]  # TF 2.21
    d = tf.constant(COMPACT)
    np.testing.assert_allclose(tf.linalg.tridiagonal_solve(d, b).numpy(), want, rtol=1e-5)
    np.testing.assert_allclose(tf.linalg.tridiagonal_solve((d[0], d[1], d[2]), b, diagonals_format="sequence")
                               .numpy(), want, rtol=1e-5)
    matrix = tf.constant([[4.0, 1.0, 0.0], [1.0, 4.0, 1.0], [0.0, 1.0, 4.0]])
    # TF 2.21: [[0.17857143], [0.28571427], [0.6785714]]
    np.testing.assert_allclose(tf.linalg.tridiagonal_solve(matrix, tf.constant([[1.0], [2.0], [3.0]]),
                                                           diagonals_format="matrix").numpy(),
                               [[0.17857143], [0.28571427], [0.6785714]], rtol=1e-5)
    transposed = tf.linalg.tridiagonal_solve(d, tf.constant([[1.0, 2.0, 3.0]]), transpose_rhs=True)
    assert transposed.shape == (3, 1)
    batch = tf.linalg.tridiagonal_solve(tf.stack([d, 2 * d]), tf.ones((2, 3, 2)))
    # TF 2.21: the first system's solution [0.71428573, -1.8571428, 2.642857] in both columns
    np.testing.assert_allclose(batch.numpy()[0, :, 1], [0.71428573, -1.8571428, 2.642857], rtol=1e-5)
    np.testing.assert_allclose(tf.function(tf.linalg.tridiagonal_solve)(d, b).numpy(), want, rtol=1e-5)
    # a singular system is all NaN (TF 2.21)
    assert np.isnan(tf.linalg.tridiagonal_solve(tf.zeros((3, 3)), b).numpy()).all()


def test_tridiagonal_solve_gradient():
    d, b = tf.constant(COMPACT), tf.constant([1.0, 2.0, 3.0])
    with tf.GradientTape(persistent=True) as tape:
        tape.watch([d, b])
        y = tf.reduce_sum(tf.linalg.tridiagonal_solve(d, b) * tf.constant([1.0, 2.0, 3.0]))
    # TF 2.21
    want = [[9.0, 8.540817, 0.0], [-4.0, -4.9591837, -3.954082], [0.0, 2.2040815, 2.2959185]]
    np.testing.assert_allclose(tape.gradient(y, d).numpy(), want, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(tape.gradient(y, b).numpy(), [7.0, -3.8571434, 1.7857145], rtol=1e-5)


def test_tridiagonal_errors():
    b = tf.constant([1.0, 2.0, 3.0])
    with pytest.raises(ValueError, match="Expected 3 diagonals got 2"):
        tf.linalg.tridiagonal_solve(tf.zeros((2, 3)), b)
    with pytest.raises(ValueError, match="equal, got 3 and 4"):
        tf.linalg.tridiagonal_solve(tf.constant(COMPACT), tf.ones((4,)))
    with pytest.raises(ValueError, match="Unrecognized diagonals_format: foo"):
        tf.linalg.tridiagonal_solve(tf.constant(COMPACT), b, diagonals_format="foo")
    with pytest.raises(tf.errors.InvalidArgumentError):
        tf.linalg.tridiagonal_solve(tf.constant(COMPACT), tf.cast(b, tf.float64))
    with pytest.raises(tf.errors.InvalidArgumentError, match="double, float, complex64, complex128"):
        tf.linalg.tridiagonal_solve(tf.constant([[1, 2, 0], [4, 5, 6], [0, 7, 8]]), tf.constant([1, 2, 3]))
    with pytest.raises(tf.errors.InvalidArgumentError):
        tf.linalg.tridiagonal_matmul(tf.constant(COMPACT), b)  # TF: ranks must agree


def test_tridiagonal_matmul():
    d = tf.constant(COMPACT)
    # TF 2.21: [[6], [23], [34]]; sequence of ones (3, 2): [[5, 5], [14, 14], [14, 14]]
    assert tf.linalg.tridiagonal_matmul(d, tf.constant([[1.0], [2.0], [3.0]])).numpy().tolist() == [
        [6.0], [23.0], [34.0]]
    assert tf.linalg.tridiagonal_matmul((d[0], d[1], d[2]), tf.ones((3, 2)), diagonals_format="sequence"
                                        ).numpy().tolist() == [[5.0, 5.0], [14.0, 14.0], [14.0, 14.0]]
    rhs = tf.constant([[1.0], [2.0], [3.0]])
    with tf.GradientTape(persistent=True) as tape:
        tape.watch([d, rhs])
        y = tf.reduce_sum(tf.linalg.tridiagonal_matmul(d, rhs) * tf.constant([[1.0], [2.0], [3.0]]))
    # TF 2.21: [[2, 6, 0], [1, 4, 9], [0, 2, 6]] and [[18], [35], [22]]
    assert tape.gradient(y, d).numpy().tolist() == [[2.0, 6.0, 0.0], [1.0, 4.0, 9.0], [0.0, 2.0, 6.0]]
    assert tape.gradient(y, rhs).numpy().tolist() == [[18.0], [35.0], [22.0]]
