"""Singular inputs of inv and solve: TF's InvalidArgumentError, eagerly and inside a function.

Oracle: TF 2.21 (CPU), observed: ``tf.linalg.inv`` of [[1, 2], [2, 4]], of zeros or of a matrix with
a NaN raises InvalidArgumentError "Input is not invertible." eagerly and when a tf.function runs;
``tf.linalg.solve`` raises "Input matrix is not invertible."; ``tf.linalg.cholesky`` of a matrix
that is not positive definite raises nothing (NaNs in the factor).
"""

import math

import numpy as np
import pytest

import companion as tf

SINGULAR = [[[1.0, 2.0], [2.0, 4.0]], [[0.0, 0.0], [0.0, 0.0]], [[math.nan, 1.0], [1.0, 1.0]]]
REGULAR = [[1.0, 2.0], [2.0, 1.0]]


def _both(fn):
    return [fn, tf.function(fn)]


@pytest.mark.parametrize("matrix", SINGULAR)
@pytest.mark.parametrize("mode", ["eager", "function"])
def test_inv_of_a_singular_matrix_raises(matrix, mode):
    fn = tf.linalg.inv if mode == "eager" else tf.function(lambda a: tf.linalg.inv(a))
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"^Input is not invertible\."):
        fn(tf.constant(matrix))


@pytest.mark.parametrize("matrix", SINGULAR[:2])
@pytest.mark.parametrize("mode", ["eager", "function"])
def test_solve_with_a_singular_matrix_raises(matrix, mode):
    def solve(a):
        return tf.linalg.solve(a, tf.constant([[1.0], [2.0]]))

    fn = solve if mode == "eager" else tf.function(solve)
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"^Input matrix is not invertible\."):
        fn(tf.constant(matrix))


def test_a_batch_with_one_singular_matrix_raises():
    batch = tf.constant([REGULAR, SINGULAR[0]])
    with pytest.raises(tf.errors.InvalidArgumentError, match="not invertible"):
        tf.function(tf.linalg.inv)(batch)


def test_regular_matrices_are_unchanged_inside_a_function():
    # TF 2.21: inv([[1, 2], [2, 1]]) = [[-1/3, 2/3], [2/3, -1/3]]; solve(., [[1], [2]]) = [[1], [0]]
    a = tf.constant(REGULAR)
    np.testing.assert_allclose(tf.function(tf.linalg.inv)(a).numpy(), [[-1 / 3, 2 / 3], [2 / 3, -1 / 3]],
                               rtol=1e-6)
    solved = tf.function(lambda m: tf.linalg.solve(m, tf.constant([[1.0], [2.0]])))(a)
    np.testing.assert_allclose(solved.numpy(), [[1.0], [0.0]], atol=1e-6)


def test_cholesky_of_a_matrix_that_is_not_positive_definite_gives_nans():
    for fn in _both(tf.linalg.cholesky):
        out = fn(tf.constant(REGULAR)).numpy()
        assert np.isnan(out[0, 0]) and np.isnan(out[1, 1])


def test_the_gradient_of_inv_inside_a_function_still_works():
    a = tf.Variable(REGULAR)

    @tf.function
    def grad():
        with tf.GradientTape() as tape:
            y = tf.reduce_sum(tf.linalg.inv(a))
        return tape.gradient(y, a)

    # d sum(inv(A)) / dA = -inv(A)^T 1 1^T inv(A)^T; here inv(A) sums to 1/3 per row
    np.testing.assert_allclose(grad().numpy(), np.full((2, 2), -1 / 9), rtol=1e-5)
