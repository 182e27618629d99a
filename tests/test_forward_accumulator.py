"""tf.autodiff.ForwardAccumulator: Jacobian-vector products checked against jax.jvp, jax.grad and
finite differences, nested with GradientTape both ways."""

import jax
import jax.numpy as jnp
import numpy as np
import pytest

import companion as tf


def _f(x):
    return jnp.sin(x) * x ** 2 + jnp.exp(0.5 * x)


def test_jvp_of_an_elementwise_chain_matches_jax_jvp():
    x0 = np.array([0.3, -1.2, 2.0], np.float32)
    t0 = np.array([1.0, 0.5, -2.0], np.float32)
    x = tf.constant(x0)
    with tf.autodiff.ForwardAccumulator(x, tf.constant(t0)) as acc:
        y = tf.sin(x) * x ** 2 + tf.exp(0.5 * x)
        total = tf.reduce_sum(y)
    _, expected = jax.jvp(_f, (x0,), (t0,))
    np.testing.assert_allclose(acc.jvp(y).numpy(), expected, rtol=1e-6)
    np.testing.assert_allclose(float(acc.jvp(total)), float(expected.sum()), rtol=1e-6)
    # a primal's own tangent is the one given
    np.testing.assert_array_equal(acc.jvp(x).numpy(), t0)


def test_variables_read_several_times_get_their_tangent_at_every_read():
    w = tf.Variable([[1.0, 2.0], [3.0, 4.0]])
    b = tf.Variable([0.5, -0.5])
    x = tf.constant([[1.0, -1.0]])
    tw, tb = np.full((2, 2), 0.1, np.float32), np.array([1.0, 2.0], np.float32)
    with tf.autodiff.ForwardAccumulator([w, b], [tf.constant(tw), tf.constant(tb)]) as acc:
        h = tf.tanh(tf.matmul(x, w) + b)
        out = tf.reduce_sum(h * tf.reduce_sum(w))

    def f(w, b):
        h = jnp.tanh(jnp.asarray([[1.0, -1.0]]) @ w + b)
        return jnp.sum(h * jnp.sum(w))

    _, expected = jax.jvp(f, (w.numpy(), b.numpy()), (tw, tb))
    np.testing.assert_allclose(float(acc.jvp(out)), float(expected), rtol=1e-5)


def test_directional_derivative_matches_finite_differences():
    x0 = np.array([0.7, 1.3], np.float64)
    t0 = np.array([0.6, -0.8], np.float64)
    x = tf.constant(x0)
    with tf.autodiff.ForwardAccumulator(x, tf.constant(t0)) as acc:
        y = tf.reduce_prod(tf.sqrt(x) + tf.math.log1p(x))
    f = lambda v: np.prod(np.sqrt(v) + np.log1p(v))  # noqa: E731
    eps = 1e-6
    numeric = (f(x0 + eps * t0) - f(x0 - eps * t0)) / (2 * eps)
    np.testing.assert_allclose(float(acc.jvp(y)), numeric, rtol=1e-7)


def test_forward_over_backward_gives_hessian_vector_products():
    v = tf.Variable([3.0, -1.0, 0.5])
    direction = np.array([1.0, 2.0, -1.0], np.float32)
    with tf.autodiff.ForwardAccumulator(v, tf.constant(direction)) as acc:
        with tf.GradientTape() as tape:
            loss = tf.reduce_sum(v ** 3) + tf.reduce_sum(v) ** 2
        grad = tape.gradient(loss, v)
    loss_fn = lambda w: jnp.sum(w ** 3) + jnp.sum(w) ** 2  # noqa: E731
    expected = jax.jvp(jax.grad(loss_fn), (v.numpy(),), (direction,))[1]
    np.testing.assert_allclose(acc.jvp(grad).numpy(), expected, rtol=1e-6)


def test_backward_over_forward_differentiates_the_directional_derivative():
    x0 = np.array([1.0, 2.0], np.float32)
    x = tf.constant(x0)
    with tf.GradientTape() as tape:
        tape.watch(x)
        with tf.autodiff.ForwardAccumulator(x, tf.constant([1.0, 1.0])) as acc:
            y = tf.reduce_sum(tf.exp(x) * x)
        directional = acc.jvp(y)
    ones = jnp.ones(2, jnp.float32)
    expected = jax.grad(lambda v: jax.jvp(lambda u: jnp.sum(jnp.exp(u) * u), (v,), (ones,))[1])(x0)
    np.testing.assert_allclose(tape.gradient(directional, x).numpy(), expected, rtol=1e-6)


def test_unconnected_and_integer_targets_and_nested_structures():
    x = tf.constant([1.0, 2.0])
    other = tf.constant([5.0])
    with tf.autodiff.ForwardAccumulator(x, tf.constant([1.0, 0.5])) as acc:
        y = 3.0 * x
        counts = tf.cast(x, tf.int32)
    assert acc.jvp(other) is None
    assert acc.jvp(counts) is None
    np.testing.assert_array_equal(acc.jvp(other, unconnected_gradients="zero").numpy(), [0.0])
    out = acc.jvp({"a": y, "b": [other]})
    np.testing.assert_allclose(out["a"].numpy(), [3.0, 1.5])
    assert out["b"] == [None]


def test_ops_run_after_the_block_are_not_accumulated():
    x = tf.constant([1.0, 2.0])
    with tf.autodiff.ForwardAccumulator(x, tf.constant([1.0, 1.0])) as acc:
        pass
    assert acc.jvp(x * 2.0) is None


def test_jvp_inside_a_function_matches_eager():
    x = tf.constant([0.5, 1.5])
    tangent = tf.constant([1.0, -1.0])

    def directional(x):
        with tf.autodiff.ForwardAccumulator(x, tangent) as acc:
            y = tf.reduce_sum(tf.tanh(x) * x)
        return acc.jvp(y)

    np.testing.assert_allclose(float(tf.function(directional)(x)), float(directional(x)), rtol=1e-6)


def test_bad_primals_and_tangents_are_refused_clearly():
    x = tf.constant([1.0, 2.0])
    with pytest.raises(ValueError, match="shape and dtype"):
        tf.autodiff.ForwardAccumulator(x, tf.constant([1.0, 2.0, 3.0]))
    with pytest.raises(ValueError, match="shape and dtype"):
        tf.autodiff.ForwardAccumulator(x, tf.constant([1, 2]))
    with pytest.raises(ValueError, match="one tangent per primal"):
        tf.autodiff.ForwardAccumulator([x, tf.constant(1.0)], [tf.constant([1.0, 2.0])])
    with pytest.raises(ValueError, match="primal twice"):
        tf.autodiff.ForwardAccumulator([x, x], [x, x])
    with pytest.raises(TypeError, match="must be a Tensor or a Variable"):
        tf.autodiff.ForwardAccumulator("x", tf.constant(1.0))


def test_tf2_top_level_aliases_of_keras_modules_and_version():
    assert tf.losses is tf.keras.losses and tf.optimizers is tf.keras.optimizers
    assert tf.metrics is tf.keras.metrics and tf.initializers is tf.keras.initializers
    assert tf.autodiff.GradientTape is tf.GradientTape
    assert tf.version.VERSION == tf.__version__
