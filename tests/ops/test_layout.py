"""roll, reverse_sequence, repeat, meshgrid, sequence_mask, searchsorted and the scatter ops against NumPy."""

import numpy as np
import pytest

import companion as tf
from tests.checks import check_op


def test_roll(rng):
    x = rng.normal(size=(3, 4))
    check_op(lambda t: tf.roll(t, 1, axis=0), lambda a: np.roll(a, 1, axis=0), x)
    check_op(lambda t: tf.roll(t, [1, -2], axis=[0, 1]), lambda a: np.roll(a, (1, -2), axis=(0, 1)), x)
    staged = tf.function(lambda t, s: tf.roll(t, s, axis=1))
    np.testing.assert_allclose(staged(tf.constant(x), tf.constant(3)).numpy(), np.roll(x, 3, axis=1))


def test_repeat(rng):
    x = rng.normal(size=(2, 3))
    check_op(lambda t: tf.repeat(t, 2), lambda a: np.repeat(a, 2), x)
    check_op(lambda t: tf.repeat(t, [1, 0, 3], axis=1), lambda a: np.repeat(a, [1, 0, 3], axis=1), x)
    check_op(lambda t: tf.repeat(t, 3, axis=-2), lambda a: np.repeat(a, 3, axis=0), x)
    with pytest.raises(tf.InvalidArgumentError, match="one per slice"):
        tf.repeat(tf.constant(x), [1, 2], axis=1)


def test_meshgrid(rng):
    a, b = rng.normal(size=(3,)), rng.normal(size=(2,))
    for indexing in ("xy", "ij"):
        check_op(lambda s, t, i=indexing: tf.stack(tf.meshgrid(s, t, indexing=i)),
                 lambda s, t, i=indexing: np.stack(np.meshgrid(s, t, indexing=i)), a, b)
    assert [g.shape for g in tf.meshgrid([1, 2, 3], [4, 5], [6])] == [(2, 3, 1)] * 3


def test_sequence_mask():
    lengths = np.array([[1, 3], [2, 0]])
    want = np.arange(4) < lengths[..., None]
    np.testing.assert_array_equal(tf.sequence_mask(lengths, 4).numpy(), want)
    np.testing.assert_array_equal(tf.sequence_mask([1, 3, 2]).numpy(),
                                  np.arange(3) < np.array([[1], [3], [2]]))
    assert tf.sequence_mask([2], 3, dtype=tf.float32).numpy().tolist() == [[1.0, 1.0, 0.0]]
    staged = tf.function(lambda n: tf.sequence_mask(n, 4))
    np.testing.assert_array_equal(staged(tf.constant(lengths)).numpy(), want)
    with pytest.raises(TypeError, match="Pass maxlen"):
        tf.function(lambda n: tf.sequence_mask(n))(tf.constant([1, 2]))


def test_searchsorted(rng):
    seq = np.sort(rng.normal(size=(2, 5)), axis=-1)
    values = rng.normal(size=(2, 3))
    for side in ("left", "right"):
        want = np.stack([np.searchsorted(s, v, side=side) for s, v in zip(seq, values)])
        got = tf.searchsorted(seq, values, side=side)
        assert got.dtype == tf.int32
        np.testing.assert_array_equal(got.numpy(), want)
    assert tf.searchsorted([1, 2, 2, 3], [2], side="right", out_type=tf.int64).numpy().tolist() == [3]


def test_scatter_nd_sums_duplicates(rng):
    updates = rng.normal(size=(4, 2))
    indices = np.array([[0], [2], [0], [1]])
    want = np.zeros((3, 2))
    np.add.at(want, indices[:, 0], updates)
    check_op(lambda u: tf.scatter_nd(indices, u, [3, 2]), lambda u: want, updates)
    # the example from TensorFlow's documentation
    got = tf.scatter_nd([[4], [3], [1], [7]], [9, 10, 11, 12], [8])
    assert got.numpy().tolist() == [0, 11, 0, 10, 9, 0, 0, 12]


def test_tensor_scatter_nd_update_and_add(rng):
    x = rng.normal(size=(3, 3))
    indices = np.array([[0, 1], [2, 2]])
    updates = rng.normal(size=(2,))
    want = x.copy()
    want[0, 1], want[2, 2] = updates
    check_op(lambda t, u: tf.tensor_scatter_nd_update(t, indices, u), lambda t, u: want, x, updates)
    want_add = x.copy()
    want_add[0, 1] += updates[0]
    want_add[2, 2] += updates[1]
    check_op(lambda t, u: tf.tensor_scatter_nd_add(t, indices, u), lambda t, u: want_add, x, updates)
    rows = rng.normal(size=(1, 3))
    want_rows = x.copy()
    want_rows[1] = rows[0]
    check_op(lambda t, u: tf.tensor_scatter_nd_update(t, [[1]], u), lambda t, u: want_rows, x, rows)
    staged = tf.function(lambda t, i, u: tf.tensor_scatter_nd_add(t, i, u))
    np.testing.assert_allclose(staged(tf.constant(x), tf.constant(indices), tf.constant(updates)).numpy(),
                               want_add)


def test_tensor_scatter_nd_sub_min_max(rng):
    x = rng.normal(size=(4,))
    indices = np.array([[1], [3], [1]])
    updates = rng.normal(size=(3,))
    want = x.copy()
    np.subtract.at(want, indices[:, 0], updates)
    check_op(lambda t, u: tf.tensor_scatter_nd_sub(t, indices, u), lambda t, u: want, x, updates)
    for fn, ufunc in ((tf.tensor_scatter_nd_min, np.minimum), (tf.tensor_scatter_nd_max, np.maximum)):
        expected = x.copy()
        ufunc.at(expected, indices[:, 0], updates)
        check_op(lambda t, u, f=fn: f(t, indices, u), lambda t, u, e=expected: e, x, updates, grad=False)


def test_scatter_errors():
    with pytest.raises(tf.InvalidArgumentError, match="updates must have shape"):
        tf.tensor_scatter_nd_update(tf.zeros((3,)), [[0], [1]], [1.0])
    with pytest.raises(tf.InvalidArgumentError, match="does not index"):
        tf.tensor_scatter_nd_update(tf.zeros((3,)), [[3]], [1.0])
    with pytest.raises(TypeError, match="indices must be an integer"):
        tf.scatter_nd([[0.0]], [1.0], [2])


def _reverse_sequence_numpy(x, lengths, seq_axis, batch_axis):
    out = np.array(x)
    for i, length in enumerate(lengths):
        source = [slice(None)] * x.ndim
        source[batch_axis], source[seq_axis] = i, slice(0, length)
        out[tuple(source)] = np.flip(x[tuple(source)], axis=seq_axis - (seq_axis > batch_axis))
    return out


@pytest.mark.parametrize("seq_axis, batch_axis", [(1, 0), (0, 1), (1, 2), (2, 0)])
def test_reverse_sequence_matches_numpy(seq_axis, batch_axis):
    x = np.arange(60).reshape(3, 4, 5)
    lengths = np.random.default_rng(seq_axis).integers(0, x.shape[seq_axis] + 1, size=x.shape[batch_axis])
    got = tf.reverse_sequence(x, lengths, seq_axis=seq_axis, batch_axis=batch_axis).numpy()
    np.testing.assert_array_equal(got, _reverse_sequence_numpy(x, lengths, seq_axis, batch_axis))


def test_reverse_sequence_gradient_is_the_reversed_upstream():
    v = tf.Variable([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    with tf.GradientTape() as tape:
        reversed_rows = tf.reverse_sequence(v, tf.constant([2, 1], tf.int64), seq_axis=1)
        y = tf.reduce_sum(reversed_rows * [[1.0, 10.0, 100.0]])
    np.testing.assert_array_equal(tape.gradient(y, v).numpy(), [[10.0, 1.0, 100.0], [1.0, 10.0, 100.0]])


@pytest.mark.parametrize("bad", [dict(seq_lengths=[4, 1], seq_axis=1), dict(seq_lengths=[1], seq_axis=1),
                                 dict(seq_lengths=[1, 1], seq_axis=0, batch_axis=0)])
def test_reverse_sequence_rejects_bad_lengths_and_axes(bad):
    with pytest.raises(tf.errors.InvalidArgumentError, match="reverse_sequence"):
        tf.reverse_sequence(tf.ones([2, 3]), **bad)
    with pytest.raises(ValueError, match="seq_axis"):
        tf.reverse_sequence(tf.ones([2, 3]), [1, 1])
