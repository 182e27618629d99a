"""The iterator: get_next, and pipelines kept apart from the caller's tapes and traces."""

import pytest

import companion as tf
from companion.data import Dataset


def test_get_next_raises_out_of_range_at_the_end():
    it = iter(Dataset.range(1))
    assert int(it.get_next()) == 0
    with pytest.raises(tf.errors.OutOfRangeError):
        it.get_next()
    assert it.element_spec == tf.TensorSpec([], tf.int64)


def test_pipeline_ops_are_not_recorded_on_the_callers_tape():
    w = tf.Variable(2.0)
    ds = Dataset.range(3).map(lambda x: tf.cast(x, tf.float32) * w)
    with tf.GradientTape() as tape:
        total = tf.add_n([x * w for x in ds])
    # d/dw sum(x_i * w) with the dataset's w-scaled values treated as constants: sum(2 * i) = 6
    assert float(tape.gradient(total, w)) == 6.0


def _sum_batches(dataset):
    total = tf.constant(0.0)
    for batch in dataset:
        total = total + tf.reduce_sum(batch)
    return total


def test_a_dataset_iterated_inside_a_compiled_function():
    ds = Dataset.range(4).map(lambda x: tf.cast(x, tf.float32) * 2.0).batch(2)
    assert float(tf.function(_sum_batches)(ds)) == 12.0


def test_closing_twice_and_iterating_after_close():
    it = iter(Dataset.range(3).prefetch(1))
    next(it)
    it.close()
    it.close()
    assert list(it) == []
