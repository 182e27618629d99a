"""Variable scatter updates (``scatter_nd_*`` and ``scatter_*`` with IndexedSlices), against TF 2.21."""

import numpy as np
import pytest

import companion as tf


def _rows(values, indices):
    return tf.IndexedSlices(tf.constant(values), tf.constant(indices))


def test_scatter_nd_update_add_sub():
    # TF 2.21, one after the other: [[5, 2], [3, 4]], [[10, 2], [3, 5]], [[10, 2], [2, 4]], [[12, 2], [2, 4]]
    v = tf.Variable([[1.0, 2.0], [3.0, 4.0]])
    assert v.scatter_nd_update([[0, 0]], [5.0])._unread_of is v  # TF: an _UnreadVariable of v
    np.testing.assert_array_equal(v.numpy(), [[5, 2], [3, 4]])
    v.scatter_nd_add([[0, 0], [1, 1]], [5.0, 1.0])
    np.testing.assert_array_equal(v.numpy(), [[10, 2], [3, 5]])
    v.scatter_nd_sub([[1]], [[1.0, 1.0]])
    np.testing.assert_array_equal(v.numpy(), [[10, 2], [2, 4]])
    v.scatter_nd_add([[0, 0], [0, 0]], [1.0, 1.0])  # repeated indices add up
    np.testing.assert_array_equal(v.numpy(), [[12, 2], [2, 4]])
    with pytest.raises(tf.errors.InvalidArgumentError):  # TF 2.21: InvalidArgumentError
        v.scatter_nd_update([[5, 0]], [5.0])


@pytest.mark.parametrize("method,expected", [
    ("scatter_add", [11, 2, 3, 24]), ("scatter_sub", [-9, 2, 3, -16]), ("scatter_update", [10, 2, 3, 20]),
    ("scatter_max", [10, 2, 3, 20]), ("scatter_min", [1, 2, 3, 4]), ("scatter_mul", [10, 2, 3, 80]),
    ("scatter_div", [0, 2, 3, 0])])
def test_scatter_with_indexed_slices(method, expected):
    w = tf.Variable([1, 2, 3, 4])  # TF 2.21's results for values [10, 20] at rows [0, 3]
    assert getattr(w, method)(_rows([10, 20], [0, 3]))._unread_of is w
    np.testing.assert_array_equal(w.numpy(), expected)


def test_scatter_rows_of_a_matrix():
    v = tf.Variable(tf.zeros([3, 2]))  # TF 2.21: [[0, 0], [1, 2], [0, 0]], then [[0, 0], [3, 5], [0, 0]]
    v.scatter_update(_rows([[1.0, 2.0]], [1]))
    np.testing.assert_array_equal(v.numpy(), [[0, 0], [1, 2], [0, 0]])
    v.scatter_add(_rows([[1.0, 2.0], [1.0, 1.0]], [1, 1]))
    np.testing.assert_array_equal(v.numpy(), [[0, 0], [3, 5], [0, 0]])


def test_scatter_errors_are_tfs_classes():
    w = tf.Variable([1, 2, 3, 4])
    with pytest.raises(TypeError, match="IndexedSlices"):  # TF 2.21: TypeError
        w.scatter_add([1, 2])
    with pytest.raises(tf.errors.InvalidArgumentError):  # TF 2.21: InvalidArgumentError
        w.scatter_add(_rows([10], [9]))
    with pytest.raises(ValueError, match="dtype"):  # TF 2.21: ValueError
        w.scatter_add(_rows([1.0], [1]))


def test_scatter_inside_function():
    v = tf.Variable([[1.0, 2.0], [3.0, 4.0]])
    w = tf.Variable([1, 2, 3, 4])

    @tf.function
    def f(x):
        v.scatter_nd_update([[0, 1]], tf.reshape(x, [1]))
        w.scatter_add(_rows([1, 1], [0, 1]))
        return v.read_value()

    # TF 2.21: [[1, 42], [3, 4]] and w [2, 3, 3, 4]; a second call adds again: [3, 4, 3, 4]
    np.testing.assert_array_equal(f(tf.constant(42.0)).numpy(), [[1, 42], [3, 4]])
    np.testing.assert_array_equal(w.numpy(), [2, 3, 3, 4])
    f(tf.constant(7.0))
    np.testing.assert_array_equal(v.numpy(), [[1, 7], [3, 4]])
    np.testing.assert_array_equal(w.numpy(), [3, 4, 3, 4])
