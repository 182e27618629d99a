"""sqrt, rsqrt, reciprocal and tanh differentiate with TF's gradient kernels (`_ops/_gradient_kernels`).

Expected values are TF 2.21's, printed by the same code under TensorFlow.
"""

import jax
import jax.numpy as jnp
import numpy as np
import pytest

import companion as tf
from companion._ops import _gradient_kernels

X = [0., -1., 4., 0.25]
NAN = float("nan")
MASKED = {  # op: (tape gradient of where(x > 0, f(x), 0), its second derivative), TF's values
    "sqrt": (tf.sqrt, [0., 0., 0.25, 1.], [NAN, NAN, -0.03125, -2.]),
    "rsqrt": (tf.math.rsqrt, [0., 0., -0.0625, -4.], [NAN, NAN, 2.34375e-02, 24.]),
    "reciprocal": (tf.math.reciprocal, [0., 0., -0.0625, -16.], [NAN, 0., 3.125e-02, 128.]),
}


def _where(f):
    return lambda x: tf.where(x > 0, f(x), 0.)


def _check(got, want):
    np.testing.assert_array_equal(np.asarray(got), np.asarray(want, np.float32))


def _gradient(fn, x):
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = fn(x)
    return tape.gradient(y, x)


@pytest.mark.parametrize("name", list(MASKED))
def test_zero_upstream_gradient_is_zero_eager_and_in_function(name):
    f, want, _ = MASKED[name]
    x = tf.constant(X)
    _check(_gradient(_where(f), x), want)
    _check(tf.function(lambda x: _gradient(_where(f), x))(x), want)


@pytest.mark.parametrize("name", list(MASKED))
def test_second_derivatives_are_tfs(name):
    f, first, second = MASKED[name]
    x = tf.constant(X)
    with tf.GradientTape() as outer:
        outer.watch(x)
        with tf.GradientTape() as inner:
            inner.watch(x)
            y = _where(f)(x)
        d1 = inner.gradient(y, x)
    _check(d1, first)
    _check(outer.gradient(d1, x), second)


@pytest.mark.parametrize("name, plain, zero_tangent", [
    ("sqrt", [np.inf, NAN, 0.25, 0.], [NAN, NAN, 0.25, 0.]),  # TF's forward mode of sqrt is not masked
    ("rsqrt", [-np.inf, NAN, -0.0625, 0.], [0., 0., -0.0625, 0.]),
    ("reciprocal", [-np.inf, -1., -0.0625, 0.], [0., 0., -0.0625, 0.]),
])
def test_forward_accumulator_as_tf(name, plain, zero_tangent):
    f = MASKED[name][0]
    x = tf.constant(X)
    with tf.autodiff.ForwardAccumulator(x, tf.constant([1., 1., 1., 0.])) as acc:
        y = _where(f)(x)
        z = f(x)
    _check(acc.jvp(y), [0., 0., MASKED[name][1][2], 0.])
    _check(acc.jvp(z), plain)
    with tf.autodiff.ForwardAccumulator(x, tf.constant([0., 0., 1., 0.])) as acc:
        z = f(x)
    _check(acc.jvp(z), zero_tangent)


@pytest.mark.parametrize("name", list(MASKED))
def test_jacobian_and_output_gradients(name):
    f, want, _ = MASKED[name]
    x = tf.constant(X)
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        y = _where(f)(x)
        z = f(x)
    _check(tape.jacobian(y, x), np.diag(want))
    _check(tape.gradient(z, x, output_gradients=tf.constant([0., 0., 1., 0.])), [0., 0., want[2], 0.])


def test_variable_and_float64():
    v = tf.Variable([0., 9.])
    with tf.GradientTape() as tape:
        loss = tf.reduce_sum(tf.where(v > 0, tf.sqrt(v), 0.) + tf.math.rsqrt(v + 1.))
    np.testing.assert_allclose(tape.gradient(loss, v).numpy(), [-0.5, 0.15085529], rtol=1e-6)
    x = tf.constant([0., 1.], tf.float64)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.where(x > 0, tf.sqrt(x), tf.zeros_like(x))
    assert tape.gradient(y, x).numpy().tolist() == [0., 0.5]


def test_nonzero_upstream_keeps_the_usual_gradient():
    x = tf.constant([0., 2.])
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        ys = [tf.sqrt(x), tf.math.rsqrt(x), tf.math.reciprocal(x)]
    got = [tape.gradient(y, x).numpy().tolist() for y in ys]
    assert got[0][0] == np.inf and got[1][0] == -np.inf and got[2][0] == -np.inf  # TF: inf, -inf, -inf
    np.testing.assert_allclose([g[1] for g in got], [0.35355339, -0.1767767, -0.25], rtol=1e-6)


# TF's kernels on the same (y, dy): raw_ops.SqrtGrad / RsqrtGrad / ReciprocalGrad / TanhGrad
_Y = [0., np.inf, -np.inf, NAN, 2.]
KERNELS = {
    "sqrt": ([0.] * 5, [np.inf, 0., -0., NAN, 0.25]),
    "rsqrt": ([0.] * 5, [-0., -np.inf, np.inf, NAN, -4.]),
    "reciprocal": ([0.] * 5, [-0., -np.inf, -np.inf, NAN, -4.]),
    "tanh": ([0., NAN, NAN, NAN, -0.], [1., -np.inf, -np.inf, NAN, -3.]),
}


@pytest.mark.parametrize("name", list(KERNELS))
def test_kernels_match_tfs_raw_ops(name):
    y = jnp.asarray(_Y, jnp.float32)
    kernel = jax.jit(lambda y, dy: _gradient_kernels._GRAD[name].bind(y, dy))
    zero_dy, one_dy = KERNELS[name]
    _check(kernel(y, jnp.zeros(5, jnp.float32)), zero_dy)
    _check(kernel(y, jnp.ones(5, jnp.float32)), one_dy)
    assert not np.signbit(np.asarray(kernel(y, -jnp.zeros(5, jnp.float32)))[0]) or name == "tanh"


def test_tanh_gradient_rounds_as_tfs_kernel():
    # TF: raw_ops.TanhGrad(y=0.9198995232582092, dy=1.) = 0.1537848711013794 (dy * (1 - y * y));
    # JAX's own rule, (dy + dy * y) * (1 - y), gives 0.1537848562002182
    got = jax.jit(lambda y, dy: _gradient_kernels._GRAD["tanh"].bind(y, dy))(
        jnp.float32(0.9198995232582092), jnp.float32(1.))
    assert float(got) == 0.1537848711013794


def test_vmap_and_jacobian_of_the_kernels():
    x = jnp.asarray([[0., 4.], [1., 0.25]], jnp.float32)
    per_row = jax.vmap(jax.grad(lambda r: jnp.sum(jnp.where(r > 0, _gradient_kernels.sqrt(r), 0.))))(x)
    np.testing.assert_array_equal(np.asarray(per_row), [[0., 0.25], [0.5, 1.]])
    hess = jax.hessian(lambda r: jnp.sum(_gradient_kernels.rsqrt(r)))(jnp.asarray([1., 4.], jnp.float32))
    np.testing.assert_allclose(np.asarray(hess), np.diag([0.75, 0.75 / 32]), rtol=1e-6)


def test_integer_reciprocal_still_refused_and_values_unchanged():
    with pytest.raises(tf.errors.NotFoundError):  # TF 2.21: no Reciprocal kernel for int32
        tf.math.reciprocal(tf.constant([2]))
    assert tf.sqrt(tf.constant([4.])).numpy().tolist() == [2.]
    assert tf.tanh(tf.constant(0.5)).numpy() == jax.jit(jnp.tanh)(jnp.float32(0.5))  # XLA's, as before
