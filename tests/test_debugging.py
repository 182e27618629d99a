"""tf.debugging checks (eager and inside function), get_logger and autograph.set_verbosity."""

import logging

import numpy as np
import pytest

import companion as tf


def test_assert_equal():
    assert tf.debugging.assert_equal(tf.constant([[1, 2], [1, 2]]), [1, 2]) is None
    assert tf.assert_equal is tf.debugging.assert_equal
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"ids differ\nCondition x == y .*1 of 2"):
        tf.debugging.assert_equal(tf.constant([1, 2]), [1, 3], message="ids differ")
    with pytest.raises(tf.errors.InvalidArgumentError, match="must broadcast"):
        tf.debugging.assert_equal(tf.constant([1, 2]), [1, 2, 3])


def test_assert_near_uses_tf_default_tolerances():
    x = np.array([1.0, 100.0], np.float32)
    eps = np.finfo(np.float32).eps
    tf.debugging.assert_near(tf.constant(x), x * (1 + 5 * eps))
    with pytest.raises(tf.errors.InvalidArgumentError, match="not equal to tolerance"):
        tf.debugging.assert_near(tf.constant(x), x * (1 + 50 * eps))
    tf.debugging.assert_near(tf.constant([1.0]), [1.5], atol=0.6)


def test_check_numerics():
    x = tf.constant([1.0, 2.0])
    assert tf.debugging.check_numerics(x, "ok") is x
    with pytest.raises(tf.errors.InvalidArgumentError, match="grads : Tensor had NaN values"):
        tf.debugging.check_numerics(tf.constant([1.0, np.nan]), "grads")
    with pytest.raises(tf.errors.InvalidArgumentError, match="loss : Tensor had Inf values"):
        tf.debugging.check_numerics(tf.constant(np.inf), "loss")
    v = tf.Variable(3.0)
    with tf.GradientTape() as tape:
        y = tf.debugging.check_numerics(v * v, "y")
    assert float(tape.gradient(y, v)) == 6.0


def test_checks_inside_function_run_when_the_program_runs():
    @tf.function
    def step(x):
        tf.debugging.assert_equal(tf.reduce_sum(x), 3.0)
        return tf.debugging.check_numerics(x * 2, "doubled")

    np.testing.assert_array_equal(step(tf.constant([1.0, 2.0])).numpy(), [2.0, 4.0])
    with pytest.raises(tf.errors.InvalidArgumentError, match="Condition x == y did not hold"):
        step(tf.constant([1.0, 1.0]))  # TF's class, not XLA's wrapper of the callback's error
    checked = tf.function(lambda x: tf.debugging.check_numerics(x * 2, "doubled"))
    with pytest.raises(tf.errors.InvalidArgumentError, match="doubled : Tensor had Inf values"):
        checked(tf.constant([1.0, np.inf]))


def test_accepted_settings_and_logger():
    tf.debugging.set_log_device_placement(False)
    tf.autograph.set_verbosity(3, alsologtostdout=True)
    assert tf.autograph.get_verbosity() == 3
    tf.autograph.set_verbosity(0)
    with pytest.raises(ValueError, match="non-negative int"):
        tf.autograph.set_verbosity(-1)
    logger = tf.get_logger()
    assert isinstance(logger, logging.Logger) and logger.name == "tensorflow"
    assert logger is logging.getLogger("tensorflow")


def test_assert_greater_less_and_rank():
    tf.debugging.assert_greater(tf.constant([2, 3]), [1, 2])
    tf.debugging.assert_less(tf.constant([[1.0, 2.0]]), 3.0)
    assert tf.assert_greater is tf.debugging.assert_greater and tf.assert_rank is tf.debugging.assert_rank
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"Condition x > y .*x\[1\] = np.int32\(2\)"):
        tf.debugging.assert_greater(tf.constant([2, 2]), [1, 2])
    with pytest.raises(tf.errors.InvalidArgumentError, match="Condition x < y"):
        tf.debugging.assert_less(tf.constant([1.0]), 1.0)
    staged = tf.function(lambda x: tf.debugging.assert_less(x, 0.0))
    with pytest.raises(tf.errors.InvalidArgumentError, match="Condition x < y"):
        staged(tf.constant([-1.0, 2.0]))
    tf.debugging.assert_rank(tf.zeros((2, 3)), 2)
    with pytest.raises(ValueError, match="must have rank 1. Received rank 2"):
        tf.debugging.assert_rank(tf.zeros((2, 3)), 1)


def test_sign_assertions_raise_invalid_argument_error():
    # TF 2.21: assert_positive([1, -1]) raises InvalidArgumentError
    tf.debugging.assert_positive(tf.constant([1, 2]))
    tf.debugging.assert_non_negative(tf.constant([0.0, 2.0]))
    tf.debugging.assert_negative(tf.constant([-1]))
    tf.debugging.assert_non_positive(tf.constant([0, -3]))
    for check, bad in [(tf.debugging.assert_positive, [1, -1]), (tf.debugging.assert_negative, [0]),
                       (tf.debugging.assert_non_negative, [-1]), (tf.debugging.assert_non_positive, [2])]:
        with pytest.raises(tf.errors.InvalidArgumentError):
            check(tf.constant(bad))
    with pytest.raises(tf.errors.InvalidArgumentError):
        tf.debugging.assert_none_equal(tf.constant([1, 2]), tf.constant([3, 2]))
    tf.debugging.assert_greater_equal(tf.constant([1, 2]), 1)
    tf.debugging.assert_less_equal(tf.constant([1, 2]), 2)


def test_assert_shapes_symbols_and_ranks():
    x, y = tf.ones((2, 3)), tf.ones((2,))
    tf.debugging.assert_shapes([(x, ("N", 3)), (y, ("N",))])
    tf.debugging.assert_shapes([(x, ("*", 3)), (x, (None, ".")), (tf.constant(1), ())])
    with pytest.raises(ValueError):  # TF 2.21: ValueError for ("N", 4) on shape (2, 3)
        tf.debugging.assert_shapes([(x, ("N", 4))])
    with pytest.raises(ValueError):  # N bound to 2, then 3
        tf.debugging.assert_shapes([(x, ("N", 3)), (tf.ones((3,)), ("N",))])
    with pytest.raises(ValueError):
        tf.debugging.assert_shapes([(x, ("N",))])


def test_assert_eagerly_and_inside_function():
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"to be true. Summarized data: 1, 2\nb'hello'"):
        tf.Assert(tf.constant(False), [tf.constant([1, 2]), "hello"])
    assert tf.Assert(tf.constant(True), [1]) is None
    assert tf.debugging.Assert is tf.Assert

    @tf.function
    def positive_only(v):
        tf.Assert(tf.reduce_all(v > 0), [v])
        return v * 2

    np.testing.assert_array_equal(positive_only(tf.constant([1.0, 2.0])).numpy(), [2.0, 4.0])
    with pytest.raises(tf.errors.InvalidArgumentError, match="Summarized data: 1.0, -2.0"):
        positive_only(tf.constant([1.0, -2.0]))
    with pytest.raises(tf.errors.InvalidArgumentError, match="scalar bool"):
        tf.Assert(tf.constant([True, False]), [1])


def test_assert_in_function_shows_constant_text_data():
    # TF: tf.Assert(x > 0, ["bad value:", x]) in a function reports "[bad value:] [-3]"; the text is
    # known while tracing, only x comes from the running program
    @tf.function
    def checked(x):
        tf.Assert(x > 0, ["bad value:", x, tf.constant("end")])
        return x

    assert int(checked(tf.constant(3))) == 3
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"Summarized data: b'bad value:'\n-3\nb'end'"):
        checked(tf.constant(-3))

    @tf.function
    def computed_text(x):
        tf.Assert(x > 0, [tf.strings.as_string(x)])
        return x

    with pytest.raises(ValueError, match="depends on values the compiled function computes"):
        computed_text(tf.constant(1))


def test_gradient_helpers_and_tracing_questions():
    x = tf.constant(3.0)
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        rounded = tf.grad_pass_through(tf.round)(x * 1.4)
        squared = tf.recompute_grad(lambda v: v ** 2)(x)
    assert float(rounded) == 4.0 and float(tape.gradient(rounded, x)) == pytest.approx(1.4)
    assert float(squared) == 9.0 and float(tape.gradient(squared, x)) == 6.0
    with pytest.raises(RuntimeError, match="GradientTape"):
        tf.gradients(tf.constant(1.0), tf.constant(2.0))
    assert not tf.inside_function() and bool(tf.function(lambda: tf.inside_function())())
    seen = []
    tf.function(lambda v: seen.append(tf.is_symbolic_tensor(v)) or v)(tf.constant(1.0))
    assert seen == [True] and not tf.is_symbolic_tensor(tf.constant(1.0))
    assert [float(t) for t in tf.tuple([tf.constant(1.0), tf.constant(2.0)])] == [1.0, 2.0]
    assert tf.AggregationMethod.DEFAULT == tf.AggregationMethod.ADD_N == 0



def test_static_asserts_check_dtype_rank_and_type_as_tf_does():
    x = tf.constant([1.0, 2.0])
    assert tf.debugging.assert_all_finite(x, "ok") is x
    with pytest.raises(tf.errors.InvalidArgumentError, match="bad : Tensor had NaN values"):
        tf.debugging.assert_all_finite(tf.constant([1.0, np.nan]), "bad")
    tf.debugging.assert_integer(tf.constant([1, 2]))
    with pytest.raises(TypeError, match='need ints.  Expected "x" to be integer type'):
        tf.debugging.assert_integer(x, message="need ints")
    tf.debugging.assert_rank_at_least(x, 1)
    with pytest.raises(ValueError, match="rank at least 2"):
        tf.debugging.assert_rank_at_least(x, 2)
    tf.debugging.assert_rank_in(x, [0, 1])
    with pytest.raises(ValueError, match=r"rank in \(2, 3\)"):
        tf.debugging.assert_rank_in(x, [2, 3])
    tf.debugging.assert_scalar(tf.constant(3.0))
    with pytest.raises(ValueError, match="Expected scalar shape"):
        tf.debugging.assert_scalar(x)
    tf.debugging.assert_type(x, tf.float32)
    with pytest.raises(TypeError, match="must be of type tf.int32; got tf.float32"):
        tf.debugging.assert_type(x, tf.int32)


def test_float_dtype_iterables_and_numeric_checks():
    x = tf.constant([1.0, 2.0])
    assert tf.debugging.assert_same_float_dtype([x, tf.constant(1.0)]) == tf.float32
    assert tf.debugging.assert_same_float_dtype(None, tf.float64) == tf.float64
    assert tf.debugging.assert_same_float_dtype() == tf.float32
    with pytest.raises(ValueError, match="must be of the same type"):
        tf.debugging.assert_same_float_dtype([x, tf.constant(1.0, tf.float64)])
    with pytest.raises(ValueError, match="Expected floating point type"):
        tf.debugging.assert_same_float_dtype([tf.constant(1)])
    tf.debugging.assert_proper_iterable([1, 2])
    for improper in (x, "abc", np.zeros(2)):
        with pytest.raises(TypeError, match="proper"):
            tf.debugging.assert_proper_iterable(improper)
    assert tf.debugging.is_numeric_tensor(x) and tf.debugging.is_numeric_tensor(tf.Variable(1))
    assert not any(tf.debugging.is_numeric_tensor(v) for v in (tf.constant("a"), tf.constant(True), 3.0))


def test_assert_all_finite_inside_a_function_raises_when_it_runs():
    @tf.function
    def doubled(t):
        return tf.debugging.assert_all_finite(t, "in function") * 2.0

    np.testing.assert_array_equal(doubled(tf.constant([1.0, 2.0])).numpy(), [2.0, 4.0])
    with pytest.raises(tf.errors.InvalidArgumentError, match="in function : Tensor had Inf values"):
        doubled(tf.constant([np.inf, 1.0]))


def test_assert_shows_a_python_condition_as_tf():
    import companion as tf_

    with pytest.raises(tf_.errors.InvalidArgumentError,
                       match="Expected 'False' to be true. Summarized data: b'hello'"):
        tf_.debugging.Assert(False, ["hello"])
