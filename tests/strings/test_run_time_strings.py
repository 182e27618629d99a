"""String ops inside function on values known only at run time (companion._core._host_value)."""

import sys

import numpy as np
import pytest

import companion as tf


def test_as_string_of_a_traced_number_is_built_after_the_program_runs():
    @tf.function
    def label(x):
        if x > 0:
            return tf.strings.join(["pos:", tf.strings.as_string(x)])
        return tf.constant("non-positive")

    assert label(tf.constant(3)).numpy() == b"pos:3"  # TF 2.21: b'pos:3'
    assert label(tf.constant(-3)).numpy() == b"non-positive"
    assert label(tf.constant(12)).numpy() == b"pos:12"
    assert label.experimental_get_tracing_count() == 1


def test_numeric_results_of_run_time_strings_are_traced_tensors():
    @tf.function
    def measure(x):
        text = tf.strings.join(["x=", tf.strings.as_string(x, precision=2)])
        return text, tf.strings.length(text) * 10

    text, n = measure(tf.constant(20.25))
    assert text.numpy() == b"x=20.25" and int(n) == 70  # TF 2.21: b'x=20.25' 7


def test_print_shows_run_time_strings_each_call(capsys):
    @tf.function
    def show(step):
        tf.print("step", tf.strings.format("{}", step), output_stream=sys.stdout)
        print("tracing", tf.strings.as_string(step))

    show(tf.constant(1))
    show(tf.constant(2))
    out = capsys.readouterr().out.splitlines()
    # TF 2.21: the Python print shows a graph tensor once; tf.print quotes the string each call
    assert out == ['tracing Tensor("AsString:0", shape=(), dtype=string)', 'step "1"', 'step "2"']


def test_elif_chains_choose_between_static_and_run_time_strings():
    @tf.function
    def grade(score):
        if score >= 90:
            label = tf.constant("A")
        elif score >= 75:
            label = tf.strings.join(["B", tf.strings.as_string(score // 10)])
        else:
            label = tf.constant("C")
        return label

    assert [grade(tf.constant(s)).numpy() for s in [95, 80, 10]] == [b"A", b"B8", b"C"]  # TF 2.21


def test_a_run_time_string_in_a_loop_raises_a_clear_error():
    @tf.function
    def build(n):
        text = tf.strings.as_string(n)
        for i in tf.range(n):
            text = tf.strings.join([text, tf.strings.as_string(i)])
        return text

    with pytest.raises(TypeError, match="cannot update it in a loop"):
        build(tf.constant(3))


def test_ops_that_cannot_be_deferred_say_so():
    @tf.function
    def words(x):
        return tf.strings.split(tf.strings.as_string(x))

    with pytest.raises(TypeError, match="outside the function, eagerly"):
        words(tf.constant(3))


def test_known_strings_still_run_while_tracing():
    @tf.function
    def shout(name):
        return tf.strings.upper(name), tf.strings.length(name)

    text, n = shout(tf.constant("ada"))
    assert text.numpy() == b"ADA" and int(n) == 3


def test_to_hash_bucket_fast_matches_tf():
    strings = tf.constant(["a", "b", "", "hello world", "x" * 20, "y" * 40, "z" * 100])  # each length class
    # TF 2.21: to_hash_bucket_fast(strings, 1000) -> [939, 822, 263, 11, 348, 6, 73]
    got = tf.strings.to_hash_bucket_fast(strings, 1000)
    assert got.dtype == tf.int64
    assert np.asarray(got).tolist() == [939, 822, 263, 11, 348, 6, 73]


def test_an_early_return_of_a_run_time_string():
    @tf.function
    def f(x):
        if x > 0:
            return tf.strings.as_string(x)
        y = x * 2
        return tf.strings.join(["neg", tf.strings.as_string(y)])

    assert [f(tf.constant(v)).numpy() for v in (2, -2)] == [b"2", b"neg-4"]  # TF 2.21: b'2' b'neg-4'


def test_a_run_time_string_cannot_feed_numeric_ops():
    @tf.function
    def f(x):
        return tf.identity(tf.strings.as_string(x))

    with pytest.raises(TypeError, match="builds it on the host"):
        f(tf.constant(1))
