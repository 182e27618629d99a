"""Tracing a function that loops over a dataset consumes no pass of its own: the pass read while
tracing is the first call's. Expected values are TensorFlow 2.21's (/work/tfenv, probes
shuffle_in_fn.py, gen_in_fn.py and p4.py of the fix-d1 survey)."""

import pytest

import companion as tf
from companion.data import Dataset


def _collect(d):
    ta = tf.TensorArray(tf.int64, size=0, dynamic_size=True)
    i = 0
    for x in d:
        ta = ta.write(i, x)
        i += 1
    return ta.stack()


def test_a_seeded_shuffle_gives_its_first_epoch_to_the_first_call():
    ds = Dataset.range(8).shuffle(8, seed=1)
    collect = tf.function(_collect)
    assert collect(ds).numpy().tolist() == [0, 1, 3, 6, 5, 2, 7, 4]  # TF 2.21: epoch 0
    assert collect(ds).numpy().tolist() == [2, 1, 3, 6, 0, 4, 7, 5]  # epoch 1
    assert [int(x) for x in ds] == [7, 3, 1, 5, 6, 0, 2, 4]  # epoch 2, eagerly
    assert collect(ds).numpy().tolist() == [4, 2, 1, 7, 3, 6, 0, 5]  # epoch 3


def test_a_generator_runs_once_per_call():
    calls = []

    def gen():
        calls.append(1)
        yield from range(3)

    g = Dataset.from_generator(gen, output_signature=tf.TensorSpec((), tf.int32))

    @tf.function
    def total(d):
        s = tf.constant(0)
        for x in d:
            s += x
        return s

    assert (int(total(g)), len(calls)) == (3, 1)  # TF 2.21
    assert (int(total(g)), len(calls)) == (3, 2)


def test_epochs_unrolled_in_the_function_and_a_first_call_traced_twice():
    ds = Dataset.range(6).shuffle(6, seed=3)

    @tf.function
    def two_epochs(d):
        out = []
        for _ in range(2):
            s = tf.constant(0, tf.int64)
            for x in d:
                s = s * 10 + x
            out.append(s)
        return out

    assert [int(v) for v in two_epochs(ds)] == [12345, 41532]  # TF 2.21
    assert [int(v) for v in two_epochs(ds)] == [245301, 204135]
    assert [int(x) for x in ds] == [3, 2, 1, 4, 0, 5]
    box = []

    @tf.function
    def make_var(d):  # creates a Variable: its first call traces twice (TF's rule)
        if not box:
            box.append(tf.Variable(0, dtype=tf.int64))
        for x in d:
            box[0].assign(box[0] * 10 + x)
        return box[0].read_value()

    assert int(make_var(ds)) == 24513  # TF 2.21
    assert int(make_var(ds)) == 24513421530


def test_range_with_a_traced_bound_runs_eagerly_and_names_the_fixes_for_a_graph():
    # TF 2.21 runs Dataset.range(n) with a tensor n inside a function (squares below: 14, 30); companion
    # builds datasets while tracing, so a tensor bound runs that signature eagerly, and asking for its
    # graph says which bounds work
    @tf.function
    def squares(n):
        return Dataset.range(n).map(lambda x: x * x).reduce(tf.constant(0, tf.int64), lambda s, x: s + x)

    assert [int(squares(4)), int(squares(5))] == [14, 30]  # TF 2.21
    assert [int(squares(tf.constant(4, tf.int64))), int(squares(tf.constant(5, tf.int64)))] == [14, 30]
    with pytest.raises(tf.errors.OperatorNotAllowedInGraphError, match="Python int"):
        squares.get_concrete_function(tf.TensorSpec([], tf.int64))
