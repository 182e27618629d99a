"""sort, argsort, top_k and unique against NumPy, with gradients and error messages."""

import numpy as np
import pytest

import companion as tf
from tests.checks import check_op


@pytest.mark.parametrize("axis", [0, 1, -1])
def test_sort_both_directions(rng, axis):
    x = rng.normal(size=(3, 4))
    check_op(lambda t: tf.sort(t, axis=axis), lambda a: np.sort(a, axis=axis), x)
    check_op(lambda t: tf.sort(t, axis=axis, direction="DESCENDING"),
             lambda a: -np.sort(-a, axis=axis), x)


def test_argsort_is_stable_and_int32():
    x = np.array([3, 1, 3, 2, 1])
    got = check_op(tf.argsort, lambda a: np.argsort(a, kind="stable"), x, grad=False)
    assert got.dtype == tf.int32
    check_op(lambda t: tf.argsort(t, direction="DESCENDING"), lambda a: np.argsort(-a, kind="stable"),
             x, grad=False)
    m = np.array([[0.5, -1.0, 2.0], [1.0, 1.0, 0.0]])
    check_op(lambda t: tf.argsort(t, axis=0), lambda a: np.argsort(a, axis=0, kind="stable"), m, grad=False)


def test_sort_errors():
    with pytest.raises(ValueError, match=r"'ASCENDING' or 'DESCENDING'. Received: direction='up'"):
        tf.sort(tf.constant([1, 2]), direction="up")
    with pytest.raises(TypeError, match="argsort needs an int or float tensor.*bool"):
        tf.argsort(tf.constant([True]))
    with pytest.raises(tf.InvalidArgumentError, match="rank >= 1"):
        tf.sort(tf.constant(1.0))
    with pytest.raises(tf.InvalidArgumentError, match="sort: axis 2 is out of range"):
        tf.sort(tf.zeros((2, 2)), axis=2)


def test_top_k(rng):
    x = rng.normal(size=(3, 5))
    result = tf.top_k(tf.constant(x), k=2)
    want = np.argsort(-x, axis=-1, kind="stable")[:, :2]
    np.testing.assert_array_equal(result.indices.numpy(), want)
    assert result.indices.dtype == tf.int32
    check_op(lambda t: tf.top_k(t, k=2).values, lambda a: np.take_along_axis(a, want, -1), x)
    values, indices = tf.top_k(tf.constant([1, 5, 3, 5]), k=3)
    np.testing.assert_array_equal(values.numpy(), [5, 5, 3])
    np.testing.assert_array_equal(indices.numpy(), [1, 3, 2])
    assert tf.top_k(tf.constant([1.0]), index_type=tf.int64).indices.dtype == tf.int64


def test_top_k_errors():
    with pytest.raises(tf.InvalidArgumentError, match="at least k columns. Had 3, needed 5"):
        tf.top_k(tf.constant([1, 2, 3]), k=5)
    with pytest.raises(TypeError, match="top_k needs an int or float tensor of rank >= 1"):
        tf.top_k(tf.constant(1.0))
    with pytest.raises(TypeError, match="index_type must be companion.int32 or companion.int64"):
        tf.top_k(tf.constant([1.0]), index_type=tf.float32)


def test_unique_keeps_first_appearance_order():
    x = np.array([4, 1, 4, 2, 1, 7])
    y, idx = tf.unique(tf.constant(x))
    np.testing.assert_array_equal(y.numpy(), [4, 1, 2, 7])
    np.testing.assert_array_equal(idx.numpy(), [0, 1, 0, 2, 1, 3])
    assert idx.dtype == tf.int32 and y.dtype == tf.int64
    np.testing.assert_array_equal(tf.gather(y, idx).numpy(), x)
    result = tf.unique_with_counts(tf.constant(x), out_idx=tf.int64)
    np.testing.assert_array_equal(result.count.numpy(), [2, 2, 1, 1])
    assert result.idx.dtype == tf.int64
    words = tf.unique(tf.constant(["b", "a", "b"]))
    np.testing.assert_array_equal(words.y.numpy(), [b"b", b"a"])


def test_unique_has_no_gradient_as_in_tf():
    x = tf.constant([2.0, 1.0, 2.0])  # TF 2.21 registers no gradient for Unique: LookupError
    with tf.GradientTape() as tape:
        tape.watch(x)
        y, _ = tf.unique(x)
        total = tf.reduce_sum(y * tf.constant([10.0, 1.0]))
    with pytest.raises(LookupError, match="^gradient registry has no entry for: Unique$"):
        tape.gradient(total, x)


def test_unique_errors():
    with pytest.raises(tf.InvalidArgumentError, match=r"unique needs a concrete 1-D tensor"):
        tf.unique(tf.zeros((2, 2)))
