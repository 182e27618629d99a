"""debugging.enable_check_numerics: every op's float outputs checked for NaN/Inf (eager, function,
gradients), against NumPy's reading of which values are non-finite."""

import numpy as np
import pytest

import companion as tf


@pytest.fixture
def checking():
    tf.debugging.enable_check_numerics()
    try:
        yield
    finally:
        tf.debugging.disable_check_numerics()


def test_finite_outputs_pass_unchanged(checking):
    x = np.array([1.0, 2.0], np.float32)
    np.testing.assert_allclose(tf.math.log(x).numpy(), np.log(x), rtol=1e-6)
    assert tf.constant([3, 0]).numpy().tolist() == [3, 0]  # integer outputs are not checked


@pytest.mark.parametrize("values, found", [([0.0, 1.0], "-Inf"), ([-1.0, 1.0], "NaN"),
                                           ([0.0, -1.0], "-Inf and NaN")])
def test_eager_op_names_what_it_found(checking, values, found):
    expected = np.log(np.array(values, np.float32))
    assert not np.isfinite(expected).all()  # the oracle: NumPy's log makes these non-finite
    with pytest.raises(tf.errors.InvalidArgumentError, match=f'(?s)op "log".*Tensor had {found} values'):
        tf.math.log(tf.constant(values))


def test_function_stops_the_call(checking):
    @tf.function
    def f(a):
        return tf.sqrt(a) * 2.0

    np.testing.assert_allclose(f(tf.constant([4.0])).numpy(), [4.0])
    with pytest.raises(tf.errors.InvalidArgumentError, match='(?s)op "sqrt".*NaN'):
        f(tf.constant([-1.0]))


def test_gradients_are_checked(checking):
    v = tf.Variable([1.0, -1.0])
    with tf.GradientTape() as tape:
        y = tf.reduce_sum(tf.sqrt(tf.abs(v)))
    np.testing.assert_allclose(tape.gradient(y, v).numpy(), [0.5, -0.5])  # d sqrt|v| = sign(v) / 2 sqrt|v|
    with tf.GradientTape() as tape:
        y = tf.reduce_sum(tf.sqrt(tf.abs(v) - 1.0))  # sqrt(0): its gradient is infinite
    with pytest.raises(tf.errors.InvalidArgumentError, match="(?s)GradientTape's gradient.*Inf"):
        tape.gradient(y, v)


def test_disable_turns_the_checks_off():
    tf.debugging.enable_check_numerics()
    tf.debugging.enable_check_numerics()  # twice is fine, as in TF
    tf.debugging.disable_check_numerics()
    tf.debugging.disable_check_numerics()
    assert np.isneginf(tf.math.log(tf.constant(0.0)).numpy())


def test_bad_limit_is_a_type_error():
    with pytest.raises(TypeError, match="stack_height_limit must be an int. Received stack_height_limit='x'"):
        tf.debugging.enable_check_numerics(stack_height_limit="x")
