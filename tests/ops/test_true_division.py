"""Division is correctly rounded in every element, as TF's kernels divide (NumPy is the oracle).

XLA rewrites ``x / c`` (a constant, or a broadcast scalar) into ``x * (1 / c)``, which is one unit
in the last place off for about a quarter of values: ``36 / 100`` printed 0.35999998 where TF
prints 0.36. Every path that divides by a scalar is checked: eager, deferred, staged, gradients.
"""

import numpy as np
import pytest

import companion as tf

N = 2000


def _exact(values, divisor, dtype):
    return np.asarray(values, dtype) / np.asarray(divisor, dtype)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("divisor", [100.0, 255.0, 3.0, 7.0])
def test_division_by_a_python_scalar_is_exact(dtype, divisor):
    x = tf.range(N, dtype=dtype)
    want = _exact(np.arange(N), divisor, dtype)
    np.testing.assert_array_equal((x / divisor).numpy(), want)
    np.testing.assert_array_equal(tf.divide(x, divisor).numpy(), want)
    np.testing.assert_array_equal(tf.math.truediv(x, tf.constant(divisor, dtype)).numpy(), want)
    np.testing.assert_array_equal(tf.math.divide_no_nan(x, tf.constant(divisor, dtype)).numpy(), want)


def test_division_by_a_scalar_in_a_function_is_exact():
    # in a function the divisor is a constant of the program: XLA's simplifier would invert it
    divide = tf.function(lambda x: (x / 255.0, x / tf.constant([255.0] * N)))
    scalar, vector = divide(tf.range(N, dtype=tf.float32))
    want = _exact(np.arange(N), 255.0, "float32")
    np.testing.assert_array_equal(scalar.numpy(), want)
    np.testing.assert_array_equal(vector.numpy(), want)


def test_a_broadcast_row_divisor_is_exact():
    x = np.arange(3 * N, dtype=np.float32).reshape(N, 3)
    row = np.array([3.0, 7.0, 100.0], np.float32)
    np.testing.assert_array_equal((tf.constant(x) / tf.constant(row)).numpy(), x / row)
    np.testing.assert_array_equal((tf.constant(row) / tf.constant(x + 1)).numpy(), row / (x + 1))


def test_reduce_mean_divides_the_sum_exactly():
    # the mean is the sum divided by the count, correctly rounded (NumPy divides the same sum)
    rng = np.random.default_rng(3)
    for n in (3, 5, 7, 10):
        v = rng.normal(size=(200, n)).astype(np.float32)
        got = tf.reduce_mean(tf.constant(v), axis=1).numpy()
        np.testing.assert_array_equal(got, tf.reduce_sum(tf.constant(v), axis=1).numpy() / np.float32(n))


def test_division_gradients_are_unchanged():
    x = tf.Variable([1.0, 2.0, 4.0])
    y = tf.Variable(8.0)
    with tf.GradientTape() as tape:
        z = tf.reduce_sum(x / y)
    gx, gy = tape.gradient(z, [x, y])
    np.testing.assert_allclose(gx.numpy(), [0.125] * 3)
    np.testing.assert_allclose(gy.numpy(), -7.0 / 64.0)


def test_integer_and_mixed_division_keep_tf_dtypes():
    assert (tf.constant([1, 2]) / 2).dtype == tf.float64
    np.testing.assert_array_equal((tf.constant([36, 7]) / 100).numpy(), np.array([36, 7]) / 100)
    assert (tf.constant([1.0], tf.float16) / 3.0).dtype == tf.float16
