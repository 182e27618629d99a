"""tf.ragged's builders: range, row_splits_to_segment_ids, segment_ids_to_row_splits, stack and
boolean_mask, against TF 2.21's printed values and error classes."""

import pytest

import companion as tf


def test_range():
    # TF 2.21
    assert tf.ragged.range([3, 5, 2]).to_list() == [[0, 1, 2], [0, 1, 2, 3, 4], [0, 1]]
    assert tf.ragged.range([0, 5, 8], [3, 3, 12]).to_list() == [[0, 1, 2], [], [8, 9, 10, 11]]
    assert tf.ragged.range([0, 5, 8], [3, 3, 12], [1, -1, 2]).to_list() == [[0, 1, 2], [5, 4], [8, 10]]
    assert tf.ragged.range(tf.constant([0.0, 1.5]), [2.0, 3.0], 0.5).to_list() == [
        [0.0, 0.5, 1.0, 1.5], [1.5, 2.0, 2.5]]
    assert tf.ragged.range(3, [4, 5]).to_list() == [[3], [3, 4]]
    assert tf.ragged.range([2, 3], dtype=tf.int64).dtype == tf.int64
    assert tf.ragged.range([3, 2]).values.dtype == tf.int32
    with pytest.raises(tf.errors.InvalidArgumentError, match="delta != 0"):
        tf.ragged.range([2, 3], [4, 5], 0)
    with pytest.raises(tf.errors.InvalidArgumentError, match="same shape"):
        tf.ragged.range([2, 3], [4, 5, 6])


def test_segment_ids_and_row_splits():
    # TF 2.21: Python lists give int64, a tensor keeps its int dtype
    ids = tf.ragged.row_splits_to_segment_ids([0, 3, 3, 5, 6, 9])
    assert ids.dtype == tf.int64 and ids.numpy().tolist() == [0, 0, 0, 2, 2, 3, 4, 4, 4]
    assert tf.ragged.row_splits_to_segment_ids(tf.constant([0, 2, 3]), out_type=tf.int32).dtype == tf.int32
    splits = tf.ragged.segment_ids_to_row_splits([0, 0, 0, 2, 2, 3, 4, 4, 4])
    assert splits.dtype == tf.int64 and splits.numpy().tolist() == [0, 3, 3, 5, 6, 9]
    assert tf.ragged.segment_ids_to_row_splits([0, 0, 1], num_segments=4).numpy().tolist() == [0, 2, 3, 3, 3]
    assert tf.ragged.segment_ids_to_row_splits(tf.constant([0, 1, 1], tf.int32)).dtype == tf.int32
    with pytest.raises(ValueError, match="must have rank 1"):
        tf.ragged.row_splits_to_segment_ids([[0, 2]])


def test_stack():
    a, b = tf.ragged.constant([[1, 2], [3]]), tf.ragged.constant([[4], [], [5, 6]])
    # TF 2.21
    stacked = tf.ragged.stack([a, b])
    assert stacked.to_list() == [[[1, 2], [3]], [[4], [], [5, 6]]]
    assert stacked.shape.as_list() == [2, None, None]
    assert tf.ragged.stack([tf.constant([1, 2]), tf.constant([3, 4, 5])]).to_list() == [[1, 2], [3, 4, 5]]
    assert tf.ragged.stack([a, tf.constant([[7, 8]])]).to_list() == [[[1, 2], [3]], [[7, 8]]]
    assert tf.ragged.stack([a, tf.ragged.constant([[9, 9], []])], axis=1).to_list() == [
        [[1, 2], [9, 9]], [[3], []]]
    with pytest.raises(tf.errors.InvalidArgumentError):
        tf.ragged.stack([a, tf.ragged.constant([[1.0]])])


def test_stack_gradient_reaches_the_inputs():
    x, y = tf.constant([1.0, 2.0]), tf.constant([3.0, 4.0, 5.0])
    with tf.GradientTape() as tape:
        tape.watch([x, y])
        stacked = tf.ragged.stack([x, y])
        total = tf.reduce_sum(stacked.flat_values * tf.constant([1.0, 2.0, 3.0, 4.0, 5.0]))
    assert [g.numpy().tolist() for g in tape.gradient(total, [x, y])] == [[1.0, 2.0], [3.0, 4.0, 5.0]]


def test_boolean_mask():
    data = tf.constant([[1, 2, 3], [4, 5, 6]])
    # TF 2.21
    mask = tf.constant([[True, False, True], [False, False, True]])
    assert tf.ragged.boolean_mask(data, mask).to_list() == [[1, 3], [6]]
    rows = tf.ragged.boolean_mask(data, tf.constant([True, False]))
    assert isinstance(rows, tf.Tensor) and rows.numpy().tolist() == [[1, 2, 3]]
    ragged = tf.ragged.constant([[1, 2], [3]])
    assert tf.ragged.boolean_mask(ragged, tf.ragged.constant([[True, False], [True]])).to_list() == [[1], [3]]
    assert tf.ragged.boolean_mask(ragged, tf.constant([False, True])).to_list() == [[3]]
    with pytest.raises(ValueError, match="incompatible"):
        tf.ragged.boolean_mask(tf.constant([[1, 2, 3]]), tf.constant([[True, False]]))
    with pytest.raises(ValueError, match="dtype bool"):
        tf.ragged.boolean_mask(tf.constant([[1, 2, 3]]), tf.constant([[1, 0, 1]]))
