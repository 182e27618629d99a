"""The segment reductions (sorted and unsorted sum, mean, max, min, prod, sqrt_n) against NumPy
and TF 2.21's values for empty segments, with gradients, eager and inside `function`."""

import numpy as np
import pytest

import companion as tf
from tests.checks import check_gradient

DATA = [1.0, 2.0, 3.0, 4.0, 5.0]


def _np_segments(data, ids, count, reduce, empty):
    out = np.full((count,) + data.shape[1:], empty, data.dtype)
    for i in range(count):
        rows = data[ids == i]
        if len(rows):
            out[i] = reduce(rows, axis=0)
    return out


SQRT_N = lambda rows, axis: rows.sum(axis) / np.sqrt(len(rows))  # noqa: E731
LOWEST, HIGHEST = np.finfo(np.float32).min, np.finfo(np.float32).max


@pytest.mark.parametrize("kind, reduce, empty", [
    ("sum", np.sum, 0.0), ("mean", np.mean, 0.0), ("max", np.max, 0.0), ("min", np.min, 0.0),
    ("prod", np.prod, 1.0)])
def test_sorted_segments(kind, reduce, empty):
    # TF 2.21 on ids [0, 0, 2, 2, 3]: sum [3 0 7 5], mean [1.5 0 3.5 5], max [2 0 4 5],
    # min [1 0 3 5], prod [2 1 12 5]: an id no row has gives 0 (1 for prod)
    ids = np.array([0, 0, 2, 2, 3])
    got = getattr(tf.math, f"segment_{kind}")(tf.constant(DATA), ids)
    np.testing.assert_allclose(got.numpy(), _np_segments(np.array(DATA, np.float32), ids, 4, reduce, empty))


@pytest.mark.parametrize("kind, reduce, empty", [
    ("sum", np.sum, 0.0), ("mean", np.mean, 0.0), ("max", np.max, LOWEST), ("min", np.min, HIGHEST),
    ("prod", np.prod, 1.0), ("sqrt_n", SQRT_N, 0.0)])
def test_unsorted_segments(kind, reduce, empty):
    # TF 2.21 on ids [2, 0, 2, 1, -1], 4 segments: an empty segment gives the dtype's lowest value
    # for max (-3.4028235e38), its highest for min, 1 for prod and 0 otherwise; id -1 is dropped
    ids = np.array([2, 0, 2, 1, -1])
    got = getattr(tf.math, f"unsorted_segment_{kind}")(tf.constant(DATA), ids, num_segments=4)
    want = _np_segments(np.array(DATA, np.float32), ids, 4, reduce, empty)
    np.testing.assert_allclose(got.numpy(), want, rtol=1e-6)


def test_unsorted_segment_max_of_integers_fills_with_the_lowest_int():
    got = tf.math.unsorted_segment_max(tf.constant([1, 2]), [0, 0], num_segments=2)
    assert got.numpy().tolist() == [2, -2147483648]  # TF 2.21


def test_segments_of_rows(rng):
    data = rng.normal(size=(4, 3))
    ids = np.array([0, 1, 1, 1])
    got = tf.math.segment_mean(tf.constant(data), ids)
    np.testing.assert_allclose(got.numpy(), [data[0], data[1:].mean(axis=0)])


@pytest.mark.parametrize("kind", ["mean", "max", "min", "prod"])
def test_segment_gradients(rng, kind):
    data = rng.normal(size=(5, 2))
    check_gradient(lambda d: getattr(tf.math, f"segment_{kind}")(d, [0, 0, 1, 2, 2]), data)
    check_gradient(lambda d: getattr(tf.math, f"unsorted_segment_{kind}")(d, [2, 0, 2, 1, 0], num_segments=3),
                   data)


def test_unsorted_segments_inside_function():
    @tf.function
    def f(data, ids):
        return tf.math.unsorted_segment_max(data, ids, num_segments=3)

    got = f(tf.constant(DATA), tf.constant([2, 0, 2, 1, 0]))
    assert got.numpy().tolist() == [5.0, 4.0, 3.0]


def test_sorted_segments_need_sorted_ids():
    with pytest.raises(tf.errors.InvalidArgumentError, match="sorted"):
        tf.math.segment_max(tf.constant(DATA), [1, 0, 0, 0, 0])
    with pytest.raises(tf.errors.InvalidArgumentError, match="num_segments"):
        tf.math.unsorted_segment_min(tf.constant(DATA), [0, 0, 0, 0, 5], num_segments=3)


def test_integer_segment_results_keep_tfs_dtypes():
    # TF 2.21: prod keeps int32; segment_mean of ints is the truncated quotient (int32);
    # unsorted_segment_mean divides with truediv (float64 for int32)
    prod = tf.math.unsorted_segment_prod(tf.constant([2, 3]), [1, 1], 2)
    assert prod.dtype == tf.int32 and prod.numpy().tolist() == [1, 6]
    assert tf.math.segment_prod(tf.constant([2, 3]), [0, 0]).dtype == tf.int32
    mean = tf.math.segment_mean(tf.constant([-2, -3, 7]), [0, 0, 1])
    assert mean.dtype == tf.int32 and mean.numpy().tolist() == [-2, 7]
    assert tf.math.segment_mean(tf.constant([4, 5], tf.uint8), [0, 0]).numpy().tolist() == [4]
    unsorted = tf.math.unsorted_segment_mean(tf.constant([-2, -3, 7]), [0, 0, 1], 3)
    assert unsorted.dtype == tf.float64 and unsorted.numpy().tolist() == [-2.5, 7.0, 0.0]
