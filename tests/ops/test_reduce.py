"""Reductions, arg reductions, cumulative ops and confusion_matrix against NumPy, with gradients."""

import numpy as np
import pytest

import companion as tf
from tests.checks import check_op

AXES = [None, 0, -1, [0, 2], (1,), []]


@pytest.mark.parametrize("axis", AXES)
@pytest.mark.parametrize("keepdims", [False, True])
@pytest.mark.parametrize("name, reference", [
    ("reduce_sum", np.sum), ("reduce_mean", np.mean), ("reduce_max", np.max), ("reduce_min", np.min),
    ("reduce_prod", np.prod), ("reduce_variance", np.var), ("reduce_std", np.std),
])
def test_float_reductions_match_numpy(rng, name, reference, axis, keepdims):
    x = rng.normal(size=(2, 3, 4)) + 0.5
    grad = not (name == "reduce_std" and axis == [])  # std of single elements: sqrt(0) has no slope
    axes = tuple(axis) if isinstance(axis, list) else axis
    check_op(lambda t: getattr(tf, name)(t, axis=axis, keepdims=keepdims),
             lambda a: reference(a, axis=axes, keepdims=keepdims), x, grad=grad)


def test_reduce_logsumexp_is_stable(rng):
    x = rng.normal(size=(3, 4))
    check_op(lambda t: tf.reduce_logsumexp(t, axis=1), lambda a: np.log(np.exp(a).sum(1)), x)
    big = tf.constant([1000.0, 1000.0])
    np.testing.assert_allclose(tf.reduce_logsumexp(big).numpy(), 1000.0 + np.log(2.0))


def test_reduce_keeps_integer_dtypes_and_truncates_integer_mean():
    x = tf.constant([[1, 2], [4, 3]])
    assert tf.reduce_sum(x).dtype == tf.int32 and int(tf.reduce_sum(x)) == 10
    assert tf.reduce_prod(x).dtype == tf.int32
    np.testing.assert_array_equal(tf.reduce_mean(x, axis=0).numpy(), [2, 2])
    assert int(tf.reduce_mean(tf.constant([-1, -2]))) == -1  # rounds towards zero, as TF
    np.testing.assert_array_equal(tf.reduce_max(tf.constant(np.arange(6).reshape(2, 3)), 1).numpy(), [2, 5])


def test_reduce_of_empty_tensors():
    assert float(tf.reduce_sum(tf.zeros((0,)))) == 0.0
    assert float(tf.reduce_max(tf.zeros((0,)))) == -np.inf
    assert int(tf.reduce_min(tf.zeros((0,), tf.int32))) == np.iinfo(np.int32).max


def test_reduce_max_gradient_splits_ties():
    x = tf.constant([1.0, 3.0, 3.0])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.reduce_max(x)
    np.testing.assert_allclose(tape.gradient(y, x).numpy(), [0.0, 0.5, 0.5])


def test_reduce_all_any():
    x = np.array([[True, False], [True, True]])
    check_op(lambda t: tf.reduce_all(t, axis=1), lambda a: a.all(axis=1), x, grad=False)
    check_op(lambda t: tf.reduce_any(t, keepdims=True), lambda a: a.any(keepdims=True), x, grad=False)


def test_reduction_errors():
    with pytest.raises(TypeError, match=r"reduce_sum needs a numeric.*dtype bool.*companion.cast"):
        tf.reduce_sum(tf.constant([True, False]))
    with pytest.raises(TypeError, match=r"reduce_all needs a bool tensor.*float32.*x != 0"):
        tf.reduce_all(tf.constant([1.0]))
    with pytest.raises(TypeError, match="reduce_std needs a floating-point tensor.*int32"):
        tf.reduce_std(tf.constant([1, 2]))
    with pytest.raises(tf.InvalidArgumentError, match=r"reduce_mean: axis 2 is out of range.*rank 2"):
        tf.reduce_mean(tf.zeros((2, 3)), axis=2)
    with pytest.raises(tf.InvalidArgumentError, match="lists a dimension twice"):
        tf.reduce_sum(tf.zeros((2, 3)), axis=[1, -1])


def test_axis_may_be_a_tensor_or_array():
    x = tf.ones((2, 3))
    np.testing.assert_array_equal(tf.reduce_sum(x, axis=tf.constant(1)).numpy(), [3.0, 3.0])
    np.testing.assert_array_equal(tf.reduce_sum(x, axis=np.array([0])).numpy(), [2.0, 2.0, 2.0])


def test_argmax_argmin(rng):
    x = rng.normal(size=(3, 4))
    got = check_op(tf.argmax, lambda a: np.argmax(a, axis=0), x, grad=False)
    assert got.dtype == tf.int64
    check_op(lambda t: tf.argmin(t, axis=-1), lambda a: np.argmin(a, axis=-1), x, grad=False)
    assert tf.argmax(tf.constant([1, 9, 9]), output_type=tf.int32).dtype == tf.int32
    assert int(tf.argmax(tf.constant([1, 9, 9]))) == 1
    with pytest.raises(TypeError, match="output_type must be companion.int32 or companion.int64"):
        tf.argmax(tf.constant([1.0]), output_type=tf.float32)
    with pytest.raises(tf.InvalidArgumentError, match="rank >= 1"):
        tf.argmin(tf.constant(1.0))


def _np_cumulative(fn, identity):
    def reference(a, axis=0, exclusive=False, reverse=False):
        a = np.flip(a, axis) if reverse else a
        out = fn(a, axis=axis)
        if exclusive:
            out = np.concatenate([np.full_like(np.take(a, [0], axis), identity),
                                  np.delete(out, -1, axis)], axis)
        return np.flip(out, axis) if reverse else out

    return reference


@pytest.mark.parametrize("exclusive", [False, True])
@pytest.mark.parametrize("reverse", [False, True])
@pytest.mark.parametrize("axis", [0, 1, -1])
def test_cumsum_cumprod(rng, axis, exclusive, reverse):
    x = rng.normal(size=(3, 4))
    check_op(tf.cumsum, _np_cumulative(np.cumsum, 0), x, axis=axis, exclusive=exclusive, reverse=reverse)
    check_op(tf.cumprod, _np_cumulative(np.cumprod, 1), x, axis=axis, exclusive=exclusive, reverse=reverse)


def test_cumsum_integers_and_errors():
    assert tf.cumsum(tf.constant([1, 2, 3])).dtype == tf.int32
    with pytest.raises(tf.InvalidArgumentError, match="cumsum: axis 1 is out of range"):
        tf.cumsum(tf.constant([1, 2]), axis=1)
    with pytest.raises(TypeError, match="cumprod needs a numeric"):
        tf.cumprod(tf.constant([True]))


def test_count_nonzero():
    x = np.array([[0.0, 1.5, 0.0], [2.0, 0.0, -1.0]])
    got = check_op(tf.count_nonzero, np.count_nonzero, x, grad=False)
    assert got.dtype == tf.int64
    check_op(lambda t: tf.count_nonzero(t, axis=1, keepdims=True),
             lambda a: np.count_nonzero(a, axis=1, keepdims=True), x, grad=False)
    assert int(tf.count_nonzero(tf.constant([True, False, True]))) == 2


def test_confusion_matrix():
    labels, preds = np.array([1, 2, 4, 2]), np.array([2, 2, 4, 0])

    def reference(lab, pre, n=5):
        out = np.zeros((n, n), np.int32)
        np.add.at(out, (lab, pre), 1)
        return out

    got = check_op(tf.confusion_matrix, reference, labels, preds, grad=False)
    assert got.dtype == tf.int32
    check_op(lambda a, b: tf.confusion_matrix(a, b, num_classes=6), lambda a, b: reference(a, b, 6),
             labels, preds, grad=False)
    weights = np.array([0.5, 1.0, 2.0, 1.5])
    got = tf.confusion_matrix(labels, preds, weights=weights, dtype=tf.float64)
    want = np.zeros((5, 5))
    np.add.at(want, (labels, preds), weights)
    np.testing.assert_allclose(got.numpy(), want)


def test_confusion_matrix_errors():
    with pytest.raises(tf.InvalidArgumentError, match="`labels` contains negative values"):
        tf.confusion_matrix([-1, 0], [0, 0])
    with pytest.raises(tf.InvalidArgumentError, match="`predictions` out of bound.*num_classes=2"):
        tf.confusion_matrix([0, 1], [0, 2], num_classes=2)
    with pytest.raises(tf.InvalidArgumentError, match=r"one length. Received shapes \(2,\) and \(3,\)"):
        tf.confusion_matrix([0, 1], [0, 1, 1])
    with pytest.raises(TypeError, match="labels must be a 1-D tensor of class ids"):
        tf.confusion_matrix([[0, 1], [1, 0]], [0, 1])
    with pytest.raises(TypeError, match="predictions must be a 1-D tensor of class ids"):
        tf.confusion_matrix([0, 1], [["a"], ["b"]])


def test_confusion_matrix_squeezes_and_casts_like_tf():
    """Labels (N,) beside rounded sigmoid outputs (N, 1), float classes truncated (TF's rules)."""
    labels = np.array([0, 1, 1, 0, 1], np.int64)
    probabilities = np.array([[0.2], [0.7], [0.4], [0.9], [0.6]], np.float32)
    predictions = np.round(probabilities).astype(np.int64)
    want = np.zeros((2, 2), np.int32)
    np.add.at(want, (labels, predictions[:, 0]), 1)
    np.testing.assert_array_equal(tf.math.confusion_matrix(labels, predictions, num_classes=2).numpy(), want)
    swapped = tf.math.confusion_matrix(predictions, labels, num_classes=2)
    np.testing.assert_array_equal(swapped.numpy(), want.T)
    floats = tf.math.confusion_matrix(labels.astype(np.float64), np.round(probabilities), num_classes=2)
    np.testing.assert_array_equal(floats.numpy(), want)
    truncated = tf.math.confusion_matrix([1.9, 0.5], [False, False])  # (1, 0) and (0, 0)
    np.testing.assert_array_equal(truncated.numpy(), [[1, 0], [1, 0]])

    @tf.function
    def staged(y, p):
        return tf.math.confusion_matrix(y, p, num_classes=2)

    np.testing.assert_array_equal(staged(tf.constant(labels), tf.constant(predictions)).numpy(), want)


@pytest.mark.parametrize("dtype, values, mean", [
    (np.uint8, [200, 200, 200], 200),  # TF 2.21: a uint8 image's mean is 200, not an 8-bit wrap
    (np.int8, [100, 100], 100),
    (np.int16, [30000, 30000], 30000),
    (np.int32, [2**31 - 1, 2**31 - 1], 2**31 - 1),
    (np.int32, [-3, 0], -1),  # rounded towards zero
])
def test_integer_means_accumulate_without_overflow(dtype, values, mean):
    result = tf.reduce_mean(tf.constant(np.array(values, dtype)))
    assert result.dtype == tf.as_dtype(dtype) and int(result) == mean


def test_arg_reductions_skip_nan_and_take_booleans_as_tf():
    nan, inf = float("nan"), float("inf")
    # TF 2.21: 3, 0, 1 (its kernel compares with >, so a NaN never wins) and 1 for [False, True]
    assert int(tf.argmax([1.0, nan, 3.0, inf])) == 3
    assert int(tf.argmin([1.0, nan, 3.0, inf])) == 0
    assert int(tf.argmax([nan, 5.0])) == 1
    assert int(tf.argmax(tf.constant([False, True]))) == 1


def test_integer_mean_of_nothing_is_zero_not_a_crash():
    # TF 2.21 gives 0; an integer division by the count 0 used to kill the process (SIGFPE)
    assert int(tf.reduce_mean(tf.constant([], tf.int32))) == 0
    assert tf.reduce_mean(tf.zeros([2, 0], tf.int64), axis=1).numpy().tolist() == [0, 0]
