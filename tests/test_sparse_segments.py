"""tf.sparse.segment_sum/mean/sqrt_n and tf.sparse.maximum/minimum against TF 2.21's printed values,
with gradients and TF's error classes."""

import numpy as np
import pytest

import companion as tf


def _data():
    return tf.constant([[1.0, 2, 3, 4], [-1, -2, -3, -4], [5, 6, 7, 8]])


def test_segment_reductions_tf_values():
    c = _data()
    # TF 2.21
    cancelled = tf.sparse.segment_sum(c, tf.constant([0, 1]), tf.constant([0, 0]))
    assert cancelled.numpy().tolist() == [[0, 0, 0, 0]]
    assert tf.sparse.segment_sum(c, [0, 1, 2], [0, 1, 1]).numpy().tolist() == [[1, 2, 3, 4], [4, 4, 4, 4]]
    assert tf.sparse.segment_sum(c, [0, 2], [0, 2]).numpy().tolist() == [[1, 2, 3, 4], [0] * 4, [5, 6, 7, 8]]
    assert tf.sparse.segment_sum(c, [0, 1], [0, 2], num_segments=4).numpy().tolist() == [
        [1, 2, 3, 4], [0] * 4, [-1, -2, -3, -4], [0] * 4]
    assert tf.sparse.segment_mean(c, [0, 1, 2], [0, 0, 1]).numpy().tolist() == [[0] * 4, [5, 6, 7, 8]]
    np.testing.assert_allclose(tf.sparse.segment_sqrt_n(c, [0, 1, 2], [0, 0, 0]).numpy(),
                               [[2.8867512, 3.4641016, 4.041452, 4.618802]], rtol=1e-6)
    summed = tf.sparse.segment_sum(tf.constant([[1, 2], [3, 4]]), [0, 1, 1], [0, 0, 1])
    assert summed.dtype == tf.int32 and summed.numpy().tolist() == [[4, 6], [3, 4]]
    traced = tf.function(lambda d: tf.sparse.segment_mean(d, [0, 1, 2], [0, 0, 1], num_segments=3))(c)
    assert traced.numpy().tolist() == [[0] * 4, [5, 6, 7, 8], [0] * 4]


def test_segment_gradient():
    c = _data()
    with tf.GradientTape() as tape:
        tape.watch(c)
        reduced = tf.sparse.segment_sqrt_n(c, [0, 1, 2, 0], [0, 0, 1, 1])
        y = tf.reduce_sum(reduced * tf.constant([[1.0], [2.0]]))
    # TF 2.21
    want = [2.1213202, 0.70710677, 1.4142135]
    np.testing.assert_allclose(tape.gradient(y, c).numpy()[:, 0], want, rtol=1e-6)


def test_segment_errors():
    c = _data()
    with pytest.raises(tf.errors.InvalidArgumentError, match="half, float, double"):
        tf.sparse.segment_mean(tf.constant([[1, 2]]), [0], [0])
    with pytest.raises(tf.errors.InvalidArgumentError, match="out of range"):
        tf.sparse.segment_sum(c, [0, 5], [0, 0])
    with pytest.raises(tf.errors.InvalidArgumentError, match="not increasing"):
        tf.sparse.segment_sum(c, [0, 1], [1, 0])
    with pytest.raises(tf.errors.InvalidArgumentError, match="same size"):
        tf.sparse.segment_sum(c, [0, 1], [0])


def test_sparse_maximum_minimum():
    a = tf.sparse.SparseTensor([[0, 0], [1, 1]], [1.0, -2.0], [2, 2])
    b = tf.sparse.SparseTensor([[0, 0], [0, 1]], [3.0, 4.0], [2, 2])
    high, low = tf.sparse.maximum(a, b), tf.sparse.minimum(a, b)
    # TF 2.21: the union of the entries in row-major order, a missing entry counting as 0
    assert high.indices.numpy().tolist() == [[0, 0], [0, 1], [1, 1]]
    assert high.values.numpy().tolist() == [3.0, 4.0, 0.0]
    assert low.values.numpy().tolist() == [1.0, 0.0, -2.0]
    with pytest.raises(tf.errors.InvalidArgumentError):
        tf.sparse.maximum(a, tf.sparse.SparseTensor([[0, 0]], [1.0], [3, 3]))
