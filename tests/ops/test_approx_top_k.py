"""tf.math.approx_max_k / approx_min_k (also in tf.nn) as TF 2.21 runs them on a CPU: exact top-k along
the last dimension; no kernel for the smallest or for another dimension."""

import numpy as np
import pytest

import companion as tf

X = [[1.0, 5.0, 3.0, 5.0, 0.5], [2.0, -1.0, 7.0, 7.0, 9.0]]


def test_approx_max_k_tf_values():
    x = tf.constant(X)
    values, indices = tf.math.approx_max_k(x, 2)
    # TF 2.21: ties go to the lower index
    assert values.numpy().tolist() == [[5.0, 5.0], [9.0, 7.0]]
    assert indices.dtype == tf.int32 and indices.numpy().tolist() == [[1, 3], [4, 2]]
    assert type(tf.nn.approx_max_k(x, 1)).__name__ == "ApproxTopK"
    assert tf.math.approx_max_k(tf.constant([3.0, 1.0, 4.0]), 2).indices.numpy().tolist() == [2, 0]
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.reduce_sum(tf.math.approx_max_k(x, 2)[0] * tf.constant([[1.0, 2.0], [3.0, 4.0]]))
    np.testing.assert_array_equal(tape.gradient(y, x).numpy(), [[0, 1, 0, 2, 0], [0, 0, 4, 0, 3]])
    traced = tf.function(lambda a: tf.math.approx_max_k(a, 1))(x)
    assert traced.values.numpy().tolist() == [[5.0], [9.0]]


def test_approx_top_k_errors_as_on_a_cpu():
    x = tf.constant(X)
    with pytest.raises(tf.errors.NotFoundError):
        tf.math.approx_min_k(x, 3)
    with pytest.raises(tf.errors.NotFoundError):
        tf.math.approx_max_k(x, 1, reduction_dimension=0)
    with pytest.raises(tf.errors.InvalidArgumentError):
        tf.function(lambda a: tf.math.approx_min_k(a, 2))(x)
    with pytest.raises(tf.errors.InvalidArgumentError, match="half, bfloat16, float"):
        tf.math.approx_max_k(tf.constant([[3, 1, 2]]), 2)
    with pytest.raises(tf.errors.InvalidArgumentError, match="half, bfloat16, float"):
        tf.math.approx_max_k(tf.cast(x, tf.float64), 1)
    with pytest.raises(tf.errors.InvalidArgumentError, match="at least k columns"):
        tf.math.approx_max_k(x, 6)
