"""Staged loops differentiated by a GradientTape inside and around a function (autograph._loop_op).

Oracles: jax.grad of the same loop written with lax.fori_loop or a Python loop, closed forms,
and values TF 2.21 prints for the same programs (tests/parity).
"""

import jax
import numpy as np
import pytest

import companion as tf


def test_tensor_array_writes_in_a_static_range_loop():
    @tf.function
    def f(x):
        with tf.GradientTape() as tape:
            tape.watch(x)
            ta = tf.TensorArray(tf.float32, size=3)
            for i in tf.range(3):
                ta = ta.write(i, x ** tf.cast(i, tf.float32))
            y = tf.reduce_sum(ta.stack())
        return tape.gradient(y, x)

    assert float(f(tf.constant(3.0))) == pytest.approx(7.0)  # TF 2.21 gives 7.0 (1 + 2x)


def test_map_fn_and_scan_inside_a_function():
    w = tf.Variable(2.0, dtype=tf.float64)

    @tf.function
    def f(x):
        with tf.GradientTape(persistent=True) as tape:
            tape.watch(x)
            y = tf.reduce_sum(tf.map_fn(lambda v: v ** 3 * w, x))
            z = tf.reduce_sum(tf.scan(lambda a, v: a * v, x))
        return tape.gradient(y, x), tape.gradient(y, w), tape.gradient(z, x)

    values = np.array([1.0, 2.0, 3.0])
    dx, dw, dz = f(tf.constant(values))

    def oracle(x, w):
        return jax.numpy.sum(x ** 3 * w), jax.numpy.sum(jax.numpy.cumprod(x))

    want = jax.grad(lambda x, w: oracle(x, w)[0], argnums=(0, 1))(values, 2.0)
    np.testing.assert_allclose(dx.numpy(), want[0])  # TF 2.21: [3., 12.] for x=[1, 2], w=1
    assert float(dw) == pytest.approx(float(want[1]))
    np.testing.assert_allclose(dz.numpy(), jax.grad(lambda x: oracle(x, 2.0)[1])(values))  # [9, 4, 2]


def _power_oracle(x, n):
    return jax.lax.fori_loop(0, n, lambda _, y: y * x, 1.0)


def test_while_loop_with_a_trip_count_known_at_run_time():
    @tf.function
    def power(x, n):
        with tf.GradientTape() as tape:
            tape.watch(x)
            _, y = tf.while_loop(lambda i, y: i < n, lambda i, y: (i + 1, y * x), (0, tf.constant(1.0)))
        return y, tape.gradient(y, x)

    y, dy = power(tf.constant(2.0), tf.constant(4))
    assert (float(y), float(dy)) == (16.0, 32.0)  # TF 2.21 gives (16.0, 32.0)
    y, dy = power(tf.constant(1.5), tf.constant(0))
    assert (float(y), float(dy)) == (1.0, 0.0)


def test_nested_loops_with_run_time_bounds_and_a_variable():
    w = tf.Variable(1.5)

    @tf.function
    def f(x, n):
        with tf.GradientTape(persistent=True) as tape:
            tape.watch(x)
            y = tf.constant(1.0)
            for _ in tf.range(n):
                for _ in tf.range(2):
                    y = y * x * w
        return y, tape.gradient(y, x), tape.gradient(y, w)

    y, dx, dw = f(tf.constant(1.2), tf.constant(3))
    want = jax.grad(lambda x, w: (x * w) ** 6, argnums=(0, 1))(1.2, 1.5)
    assert float(y) == pytest.approx(1.8 ** 6, rel=1e-5)
    assert float(dx) == pytest.approx(float(want[0]), rel=1e-5)
    assert float(dw) == pytest.approx(float(want[1]), rel=1e-5)


def test_a_loop_whose_test_reads_the_state_and_a_tape_around_the_function():
    @tf.function
    def grow(x):
        y = x
        while y < 100.0:
            y = y * x
        return y

    x = tf.constant(2.0)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = grow(x)
    assert float(y) == 128.0
    assert float(tape.gradient(y, x)) == pytest.approx(7 * 2.0 ** 6)  # y = x**7 at x = 2


def test_second_derivative_through_a_run_time_bounded_loop():
    @tf.function
    def second(x, n):
        with tf.GradientTape() as outer:
            outer.watch(x)
            with tf.GradientTape() as inner:
                inner.watch(x)
                y = tf.while_loop(lambda i, y: i < n, lambda i, y: (i + 1, y * x), (0, tf.constant(1.0)))[1]
            g = inner.gradient(y, x)
        return g, outer.gradient(g, x)

    g, h = second(tf.constant(2.0), tf.constant(4))
    assert float(g) == pytest.approx(float(jax.grad(_power_oracle)(2.0, 4)))
    assert float(h) == pytest.approx(float(jax.grad(jax.grad(_power_oracle))(2.0, 4)))  # 12 x**2 = 48


def test_a_loop_that_assigns_a_variable_still_differentiates_and_assigns():
    v = tf.Variable(0.0)

    @tf.function
    def f(x, n):
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = x
            for _ in tf.range(n):
                v.assign_add(1.0)
                y = y * x
        return y, tape.gradient(y, x)

    y, dy = f(tf.constant(2.0), tf.constant(3))
    assert (float(y), float(dy), float(v)) == (16.0, 32.0, 3.0)


def test_finite_differences_of_a_bounded_loop_with_a_dynamic_write():
    @tf.function
    def f(x):
        with tf.GradientTape() as tape:
            tape.watch(x)
            ta = tf.TensorArray(tf.float64, size=4)
            h = tf.constant(0.5, tf.float64)
            for i in tf.range(4):
                h = tf.tanh(h * x[i] + x[(i + 1) % 4])
                ta = ta.write(i, h)
            y = tf.reduce_sum(ta.stack() ** 2)
        return y, tape.gradient(y, x)

    values = np.array([0.3, -0.7, 1.1, 0.2])
    _, grad = f(tf.constant(values))
    eps = 1e-6
    numeric = [(float(f(tf.constant(values + eps * e))[0]) - float(f(tf.constant(values - eps * e))[0]))
               / (2 * eps) for e in np.eye(4)]
    np.testing.assert_allclose(grad.numpy(), numeric, rtol=1e-6)


def test_set_loop_options_caps_staged_loops_as_tf_does():
    # TF 2.21 gives (4, 4, 3) for n=10, m=4 and (2, 2, 2) for n=2, m=4
    @tf.function
    def f(n, m):
        k = 0
        for _ in tf.range(n):
            tf.autograph.experimental.set_loop_options(maximum_iterations=m)
            k += 1
        j = 0
        while j < n:
            tf.autograph.experimental.set_loop_options(maximum_iterations=m)
            j += 1
        j2 = 0
        while j2 < n:
            tf.autograph.experimental.set_loop_options(maximum_iterations=3)
            j2 += 1
        return k, j, j2

    assert [int(v) for v in f(tf.constant(10), tf.constant(4))] == [4, 4, 3]
    assert [int(v) for v in f(tf.constant(2), tf.constant(4))] == [2, 2, 2]


def test_set_loop_options_gives_a_dynamic_tensor_array_its_capacity():
    @tf.function
    def squares(n):
        ta = tf.TensorArray(tf.int32, size=0, dynamic_size=True)
        for i in tf.range(n):
            tf.autograph.experimental.set_loop_options(maximum_iterations=5)
            ta = ta.write(i, i * i)
        return ta.stack()

    # TF 2.21 gives [0 1 4 9 16] for n=5 and n=9
    np.testing.assert_array_equal(squares(tf.constant(5)).numpy(), [0, 1, 4, 9, 16])
    np.testing.assert_array_equal(squares(tf.constant(9)).numpy(), [0, 1, 4, 9, 16])


def test_a_dynamic_tensor_array_in_a_run_time_bounded_loop_says_what_to_pass():
    @tf.function
    def squares(n):
        ta = tf.TensorArray(tf.int32, size=0, dynamic_size=True)
        for i in tf.range(n):
            ta = ta.write(i, i * i)
        return ta.stack()

    with pytest.raises(ValueError, match="set_loop_options\\(maximum_iterations=N\\)"):
        squares.get_concrete_function(tf.TensorSpec([], tf.int32))  # (a call runs it eagerly instead)
    np.testing.assert_array_equal(squares(tf.constant(5)).numpy(), [0, 1, 4, 9, 16])


def test_set_loop_options_bounds_the_loop_a_tape_differentiates():
    @tf.function
    def power(x, n):
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = tf.constant(1.0)
            for _ in tf.range(n):
                tf.autograph.experimental.set_loop_options(maximum_iterations=10)
                y = y * x
        return y, tape.gradient(y, x)

    assert [float(v) for v in power(tf.constant(2.0), tf.constant(4))] == [16.0, 32.0]
