"""An iterator used inside a `function` pulls fresh elements on every call, as TF's iterator resource.

Expected values are TensorFlow 2.21's (run with /work/tfenv, probes tf_function_iter2.py and p1.py of
the fix-d1 survey).
"""

import pytest

import companion as tf
from companion.data import Dataset


def test_next_of_an_iterator_argument_pulls_on_every_call():
    @tf.function
    def first(it):
        return next(it)

    it = iter(Dataset.range(3, 10))
    assert [int(first(it)), int(first(it)), int(next(it))] == [3, 4, 5]  # TF 2.21: 3, 4, 5


def test_pulls_inside_a_staged_range_loop_follow_the_run_time_count():
    @tf.function
    def steps(it, n):
        s = tf.constant(0, tf.int64)
        for _ in tf.range(n):
            s += next(it)
        return s

    it = iter(Dataset.range(100))
    assert [int(steps(it, 3)), int(steps(it, 3)), int(next(it))] == [3, 12, 6]  # TF 2.21


def test_get_next_pulls_and_raises_out_of_range_at_the_end():
    @tf.function
    def get_next(it):
        return it.get_next()

    it = iter(Dataset.range(2).map(lambda x: {"a": x}))
    assert [int(get_next(it)["a"]), int(get_next(it)["a"])] == [0, 1]
    with pytest.raises(tf.errors.OutOfRangeError):
        get_next(it)


def test_get_next_as_optional_is_empty_at_the_end():
    @tf.function
    def has(it):
        return it.get_next_as_optional().has_value()

    it = iter(Dataset.range(1))
    assert [bool(has(it)), bool(has(it))] == [True, False]  # TF 2.21


def test_iterators_of_one_spec_share_a_trace():
    traces = []

    @tf.function
    def first(it):
        traces.append(1)
        return next(it)

    a, b = iter(Dataset.range(3)), iter(Dataset.range(10, 13))
    assert [int(first(a)), int(first(b)), int(first(a))] == [0, 10, 1]  # TF 2.21
    assert len(traces) == 1


def test_an_iterator_captured_by_the_function_pulls_on_every_call():
    g = iter(Dataset.range(4))

    @tf.function
    def closure():
        return next(g) * 10

    assert [int(closure()), int(closure()), int(next(g))] == [0, 10, 2]  # TF 2.21


def test_a_tuple_element_and_a_training_step():
    v = tf.Variable(1.0)

    @tf.function
    def step(it):
        x, y = next(it)
        with tf.GradientTape() as tape:
            loss = v * x + y
        v.assign_sub(0.1 * tape.gradient(loss, v))
        return loss

    it = iter(Dataset.from_tensor_slices(([1.0, 2.0, 3.0], [0.0, 0.0, 0.0])))
    losses = [round(float(step(it)), 4) for _ in range(3)]
    assert losses == [1.0, 1.8, 2.1] and round(float(v.numpy()), 4) == 0.4  # TF 2.21


def test_batches_with_a_partial_last_batch():
    @tf.function
    def total(it):
        return tf.reduce_sum(next(it))

    it = iter(Dataset.range(5).batch(2))
    assert [int(total(it)) for _ in range(3)] == [1, 5, 4]  # TF 2.21
    with pytest.raises(tf.errors.OutOfRangeError):
        total(it)


def test_a_for_loop_over_an_iterator_argument_runs_to_its_end():
    @tf.function
    def loop(it):
        s = tf.constant(0, tf.int64)
        for x in it:
            s += x
        return s

    it = iter(Dataset.range(5))
    assert int(loop(it)) == 10  # TF 2.21
    assert int(loop(it)) == 0


def test_a_for_loop_with_break_pulls_no_further():
    @tf.function
    def until(it):
        s = tf.constant(0, tf.int64)
        for x in it:
            if x > 2:
                break
            s += x
        return s

    it = iter(Dataset.range(10))
    assert int(until(it)) == 3
    assert int(next(it)) == 4  # the element that broke the loop was pulled, no more (as TF)


def test_an_iterator_made_inside_the_function_starts_over_each_call():
    @tf.function
    def two(ds):
        it = iter(ds)
        return next(it) + next(it)

    assert [int(two(Dataset.range(10, 20))), int(two(Dataset.range(10, 20)))] == [21, 21]  # TF 2.21
