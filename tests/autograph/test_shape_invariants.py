"""Loop variables that change shape where the program allows it (``shape_invariants``): TF runs such
loops in a graph; XLA cannot compile them, so a top-level function call runs eagerly with TF's result."""

import numpy as np
import pytest

import companion as tf


def test_while_loop_with_shape_invariants_grows_a_tensor_inside_a_function(capsys):
    @tf.function
    def grow(n):
        print("tracing grow")
        x = tf.zeros([0])
        i = tf.constant(0)
        i, x = tf.while_loop(lambda i, x: i < n,
                             lambda i, x: (i + 1, tf.concat([x, [tf.cast(i, tf.float32)]], 0)),
                             [i, x], shape_invariants=[i.shape, tf.TensorShape([None])])
        return x

    np.testing.assert_array_equal(grow(tf.constant(4)).numpy(), [0, 1, 2, 3])  # TF 2.21: [0. 1. 2. 3.]
    np.testing.assert_array_equal(grow(tf.constant(2)).numpy(), [0, 1])
    assert capsys.readouterr().out == "tracing grow\n"


def test_set_loop_options_shape_invariants_lets_an_autograph_loop_grow_a_tensor():
    @tf.function
    def collect(n):
        x = tf.zeros([0], tf.int32)
        for i in tf.range(n):
            tf.autograph.experimental.set_loop_options(shape_invariants=[(x, tf.TensorShape([None]))])
            x = tf.concat([x, [i * i]], 0)
        return x

    np.testing.assert_array_equal(collect(tf.constant(4)).numpy(), [0, 1, 4, 9])  # TF 2.21: [0 1 4 9]


def test_without_shape_invariants_a_growing_variable_still_says_what_to_do():
    @tf.function
    def grow(n):
        x = tf.zeros([0])
        for _ in tf.range(n):
            x = tf.concat([x, [1.0]], 0)
        return x

    # TF 2.21: ValueError: 'x' has shape (0,) before the loop, but shape (1,) after one iteration. Use
    # tf.autograph.experimental.set_loop_options to set shape invariants.
    with pytest.raises(ValueError, match=r"'x' has shape \(0,\) before the for loop, but shape \(1,\) "
                                         r"after one iteration\. Use tf\.autograph\.experimental\."):
        grow(tf.constant(3))


def test_a_shape_outside_the_invariant_is_tfs_value_error():
    """TF 2.21: ValueError ("... enters the loop with shape ..., but has shape ... after one iteration")."""
    caught = []

    @tf.function
    def f(n):
        i, x = tf.constant(0), tf.zeros([1])
        try:
            tf.while_loop(lambda i, x: i < n, lambda i, x: (i + 1, tf.concat([x, [1.0]], 0)),
                          [i, x], shape_invariants=[i.shape, tf.TensorShape([2])])
        except ValueError as e:
            caught.append((type(e).__name__, "enters the loop with shape" in str(e)))
        return x

    f(tf.constant(3))
    assert caught == [("ValueError", True)]


def test_a_shape_inside_the_invariant_still_runs_with_tfs_result():
    @tf.function
    def f(n):
        i, x = tf.constant(0), tf.zeros([1])
        _, x = tf.while_loop(lambda i, x: i < n,
                             lambda i, x: (i + 1, tf.concat([x, [tf.cast(i, tf.float32)]], 0)),
                             [i, x], shape_invariants=[i.shape, tf.TensorShape([None])])
        return x

    assert f(tf.constant(3)).numpy().tolist() == [0.0, 0.0, 1.0, 2.0]
