"""GradientTape: the course's Week-1 values, jax.grad/finite-difference oracles, and the errors."""

import jax
import jax.numpy as jnp
import numpy as np
import pytest

import companion as tf


def test_watched_constant_gives_8():
    x = tf.ones((2, 2))
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.reduce_sum(x)
        z = tf.square(y)
    np.testing.assert_array_equal(tape.gradient(z, x).numpy(), np.full((2, 2), 8.0))


def test_non_persistent_tape_answers_once():
    x = tf.constant(3.0)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = x * x
        z = y * y
    assert float(tape.gradient(z, x)) == 108.0
    with pytest.raises(RuntimeError) as raised:
        tape.gradient(y, x)
    # TF 2.21's text, whole (programs print it)
    assert str(raised.value) == ("A non-persistent GradientTape can only be used to compute one set of "
                                 "gradients (or jacobians)")


def test_persistent_tape_answers_twice():
    x = tf.constant(3.0)
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        y = x * x
        z = y * y
    assert float(tape.gradient(z, x)) == 108.0
    assert float(tape.gradient(y, x)) == 6.0


def test_nested_tapes_give_second_derivative():
    x = tf.Variable(1.0)
    with tf.GradientTape() as tape_2:
        with tf.GradientTape() as tape_1:
            y = x * x * x
        dy_dx = tape_1.gradient(y, x)
    d2y_dx2 = tape_2.gradient(dy_dx, x)
    assert float(dy_dx) == 3.0 and float(d2y_dx2) == 6.0


def test_first_order_outside_both_blocks_gives_none_at_second_order():
    x = tf.Variable(1.0)
    with tf.GradientTape() as tape_2:
        with tf.GradientTape() as tape_1:
            y = x * x * x
    dy_dx = tape_1.gradient(y, x)
    assert float(dy_dx) == 3.0
    assert tape_2.gradient(dy_dx, x) is None


def test_third_derivative():
    x = tf.Variable(2.0)
    with tf.GradientTape() as t3:
        with tf.GradientTape() as t2:
            with tf.GradientTape() as t1:
                y = x ** 4.0
            d1 = t1.gradient(y, x)
        d2 = t2.gradient(d1, x)
    d3 = t3.gradient(d2, x)
    assert (float(d1), float(d2), float(d3)) == (32.0, 48.0, 48.0)


def _second_order(build, sources, **kwargs):
    """``outer.gradient(g, sources)`` for ``g = inner.gradient(build(), sources)``."""
    with tf.GradientTape() as outer:
        with tf.GradientTape() as inner:
            y = build()
        g = inner.gradient(y, sources)
    return g, outer.gradient(g, sources, **kwargs)


def test_a_gradient_that_uses_no_watched_value_has_no_second_derivative():
    # TF 2.21: the outer tape sees the backward ops, so a constant gradient is not connected: None
    x = tf.Variable(2.0)
    w = tf.Variable([1.0, 2.0])
    c = tf.constant([3.0, 4.0])
    for build, source, first in [(lambda: 3 * x, x, 3.0), (lambda: x + 5.0, x, 1.0),
                                 (lambda: tf.reduce_sum(w * c), w, [3.0, 4.0])]:
        g, g2 = _second_order(build, source)
        np.testing.assert_array_equal(g.numpy(), first)
        assert g2 is None
    _, g2 = _second_order(lambda: 3 * x, x, unconnected_gradients="zero")
    assert float(g2) == 0.0


def test_a_gradient_that_reads_the_source_stays_connected():
    x = tf.Variable(2.0)
    # TF 2.21: sin -> -sin(2) = -0.9092974; relu's gradient reads x: 0.0, not None
    assert float(_second_order(lambda: tf.sin(x), x)[1]) == pytest.approx(-0.9092974)
    assert float(_second_order(lambda: tf.nn.relu(x), x)[1]) == 0.0
    assert float(_second_order(lambda: tf.exp(x) * 2.0, x)[1]) == pytest.approx(14.778112)


def test_each_gradient_is_connected_only_to_what_it_uses():
    x, a = tf.Variable(2.0), tf.Variable(3.0)
    with tf.GradientTape(persistent=True) as outer:
        with tf.GradientTape() as inner:
            y = a * x + x * x
        gx, ga = inner.gradient(y, [x, a])  # a + 2x and x
        total = gx + ga
    # TF 2.21: [2.0, 1.0], [1.0, None], [3.0, 1.0], and jacobian [1.0, None]
    assert [float(g) for g in outer.gradient(gx, [x, a])] == [2.0, 1.0]
    d_ga = outer.gradient(ga, [x, a])
    assert float(d_ga[0]) == 1.0 and d_ga[1] is None
    assert [float(g) for g in outer.gradient(total, [x, a])] == [3.0, 1.0]
    jac = outer.jacobian(ga, [x, a])
    assert float(jac[0]) == 1.0 and jac[1] is None
    with tf.GradientTape() as outer:
        with tf.GradientTape() as inner:
            y = a * x
        g = inner.gradient(y, x)
    d = outer.gradient(g, [x, a])
    assert d[0] is None and float(d[1]) == 1.0


def test_a_watched_output_gradient_connects_the_gradient_to_itself_only():
    x, c = tf.Variable(2.0), tf.constant(5.0)
    with tf.GradientTape() as outer:
        outer.watch(c)
        with tf.GradientTape() as inner:
            y = 3 * x
        g = inner.gradient(y, x, output_gradients=c)
    d = outer.gradient(g, [x, c])
    assert float(g) == 15.0 and d[0] is None and float(d[1]) == 3.0


def test_the_jacobian_of_a_constant_gradient_is_none_and_of_a_linear_one_the_hessian():
    w = tf.Variable([1.0, 2.0])
    with tf.GradientTape() as outer:
        with tf.GradientTape() as inner:
            y = 3 * w
        g = inner.gradient(y, w)
    assert outer.jacobian(g, w) is None
    with tf.GradientTape() as outer:
        with tf.GradientTape() as inner:
            y = w * w
        g = inner.gradient(y, w)
    np.testing.assert_array_equal(outer.jacobian(g, w).numpy(), [[2.0, 0.0], [0.0, 2.0]])


def test_a_dense_layers_second_derivative_in_its_input():
    inp = tf.constant([[1.0, 2.0]])
    for activation, want in [(None, None), ("tanh", [[-0.11780792, -0.11780792]])]:
        layer = tf.keras.layers.Dense(3, activation=activation, kernel_initializer="ones")
        with tf.GradientTape() as outer:
            outer.watch(inp)
            with tf.GradientTape() as inner:
                inner.watch(inp)
                out = layer(inp)
            g = inner.gradient(out, inp)
        g2 = outer.gradient(g, inp)  # TF 2.21: None for the linear layer
        if want is None:
            assert g2 is None
        else:
            np.testing.assert_allclose(g2.numpy(), want, rtol=1e-5)


def test_nested_tapes_inside_a_function_see_one_read_of_a_variable():
    x = tf.Variable(2.0)

    @tf.function
    def second(fn):
        with tf.GradientTape() as outer:
            with tf.GradientTape() as inner:
                y = fn(x)
            g = inner.gradient(y, x)
        return outer.gradient(g, x, unconnected_gradients="zero")

    assert float(second(tf.sin)) == pytest.approx(-0.9092974)  # TF 2.21
    assert float(second(lambda v: 3 * v)) == 0.0


def test_forward_over_backward_of_a_constant_gradient_is_none():
    x = tf.Variable(2.0)
    with tf.autodiff.ForwardAccumulator(x, tf.constant(1.0)) as acc:
        with tf.GradientTape() as tape:
            y = 3 * x
        g = tape.gradient(y, x)
    assert acc.jvp(g) is None  # TF 2.21
    with tf.autodiff.ForwardAccumulator(x, tf.constant(1.0)) as acc:
        with tf.GradientTape() as tape:
            y = x * x
        g = tape.gradient(y, x)
    assert float(acc.jvp(g)) == 2.0


def test_course_assignment_polynomial_gives_29():
    x = tf.Variable(2.0)
    with tf.GradientTape() as tape:
        y = tf.reduce_sum(3 * x ** 3 - 2 * x ** 2 + x)
    assert float(tape.gradient(y, x)) == 29.0


def test_mlp_gradient_matches_jax_grad(rng):
    w1, b1 = rng.normal(size=(5, 4)), rng.normal(size=(4,))
    w2, x = rng.normal(size=(4, 3)), rng.normal(size=(6, 5))

    def loss(params, x):
        w1, b1, w2 = params
        h = jnp.maximum(x @ w1 + b1, 0.0)
        return jnp.mean(jnp.tanh(h @ w2) ** 2)

    want = jax.grad(loss)([jnp.asarray(w1), jnp.asarray(b1), jnp.asarray(w2)], jnp.asarray(x))
    params = [tf.Variable(w1), tf.Variable(b1), tf.Variable(w2)]
    with tf.GradientTape() as tape:
        h = tf.maximum(tf.constant(x) @ params[0] + params[1], 0.0)
        y = tf.reduce_mean(tf.tanh(h @ params[2]) ** 2)
    got = tape.gradient(y, params)
    for g, w in zip(got, want):
        np.testing.assert_allclose(g.numpy(), np.asarray(w), rtol=1e-10)


def test_sources_keep_their_structure():
    a, b = tf.Variable(1.0), tf.Variable(2.0)
    with tf.GradientTape() as tape:
        y = a * b
    grads = tape.gradient(y, {"a": a, "pair": (b, a)})
    assert set(grads) == {"a", "pair"} and isinstance(grads["pair"], tuple)
    assert float(grads["a"]) == 2.0 and float(grads["pair"][0]) == 1.0 and float(grads["pair"][1]) == 2.0


def test_non_scalar_and_multiple_targets_are_summed():
    x = tf.Variable([1.0, 2.0])
    with tf.GradientTape(persistent=True) as tape:
        y = x * x
        z = 3.0 * x
    np.testing.assert_allclose(tape.gradient(y, x).numpy(), [2.0, 4.0])
    np.testing.assert_allclose(tape.gradient([y, z], x).numpy(), [5.0, 7.0])


def test_output_gradients_weight_the_target():
    x = tf.Variable([1.0, 2.0])
    with tf.GradientTape() as tape:
        y = x * x
    np.testing.assert_allclose(tape.gradient(y, x, output_gradients=tf.constant([10.0, 1.0])).numpy(),
                               [20.0, 4.0])


def test_output_gradients_pair_with_flat_targets_as_in_tf():
    # TF 2.21's values: the list is flattened to scalars, one per target; missing ones are ones
    x = tf.Variable([1.0, 2.0])
    with tf.GradientTape(persistent=True) as tape:
        y = x * x
        z = x * 3.0
    np.testing.assert_allclose(tape.gradient(y, x, output_gradients=[10.0, 1.0]).numpy(), [20.0, 40.0])
    np.testing.assert_allclose(tape.gradient([y, z], x, output_gradients=[tf.constant([10.0, 1.0])]).numpy(),
                               [23.0, 7.0])
    np.testing.assert_allclose(tape.gradient(y, x, output_gradients=2.0).numpy(), [4.0, 8.0])
    np.testing.assert_allclose(tape.gradient(y, x, output_gradients=tf.constant([[10.0, 1.0]])).numpy(),
                               [20.0, 4.0])
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"Incompatible shapes: \[3\] vs. \[2\]"):
        tape.gradient(y, x, output_gradients=tf.constant([1.0, 1.0, 3.0]))
    with pytest.raises(ValueError, match="None"):
        tape.gradient([y, z], x, output_gradients=[None, tf.constant([10.0, 1.0])])


def test_unwatched_unconnected_and_integer_sources_give_none():
    x, unused = tf.constant(1.0), tf.Variable(5.0)
    frozen = tf.Variable(2.0, trainable=False)
    n = tf.Variable(3)
    with tf.GradientTape() as tape:
        y = x * 2.0 * frozen + tf.cast(n, tf.float32)
    assert tape.gradient(y, [x, unused, frozen, n]) == [None, None, None, None]


def test_unconnected_zero():
    x, unused = tf.Variable(1.0), tf.Variable([5.0, 6.0])
    with tf.GradientTape() as tape:
        y = x * 2.0
    grads = tape.gradient(y, [x, unused], unconnected_gradients=tf.UnconnectedGradients.ZERO)
    np.testing.assert_array_equal(grads[1].numpy(), [0.0, 0.0])
    assert float(grads[0]) == 2.0


def test_integer_target_gives_none():
    x = tf.Variable(1.0)
    with tf.GradientTape() as tape:
        y = tf.cast(x, tf.int32)
    assert tape.gradient(y, x) is None


def test_watch_accessed_variables_false_requires_watch():
    a, b = tf.Variable(1.0), tf.Variable(2.0)
    with tf.GradientTape(watch_accessed_variables=False) as tape:
        tape.watch(a)
        y = a * b
    assert float(tape.gradient(y, a)) == 2.0
    assert tape.watched_variables() == (a,)


def test_variable_read_twice_across_assign_sums_both_reads():
    v = tf.Variable(2.0)
    with tf.GradientTape() as tape:
        y1 = v * v
        v.assign(3.0)
        y = y1 + 10.0 * v
    assert float(tape.gradient(y, v)) == 14.0


def test_intermediate_source():
    x = tf.Variable(3.0)
    with tf.GradientTape() as tape:
        h = x * x
        y = h * x
    gh, gx = tape.gradient(y, [h, x])
    assert float(gh) == 3.0 and float(gx) == 27.0


def test_stop_recording_and_reset():
    x = tf.Variable(2.0)
    with tf.GradientTape(persistent=True) as tape:
        y = x * x
        with tape.stop_recording():
            z = x * x
        assert tape.gradient(z, x) is None
        tape.reset()
        w = x * 5.0
    assert tape.gradient(y, x) is None and float(tape.gradient(w, x)) == 5.0


def test_jacobian_and_batch_jacobian_match_jax(rng):
    x0 = rng.normal(size=(3, 2))
    w = rng.normal(size=(2, 4))
    f = lambda x: jnp.tanh(x @ jnp.asarray(w))  # noqa: E731
    x = tf.constant(x0)
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        y = tf.tanh(x @ tf.constant(w))
    full = tape.jacobian(y, x)
    assert full.shape == (3, 4, 3, 2)
    np.testing.assert_allclose(full.numpy(), jax.jacrev(f)(jnp.asarray(x0)), rtol=1e-10)
    per_example = tape.batch_jacobian(y, x)
    want = jax.vmap(jax.jacrev(lambda row: jnp.tanh(row @ jnp.asarray(w))))(jnp.asarray(x0))
    np.testing.assert_allclose(per_example.numpy(), want, rtol=1e-10)


def test_gradient_against_finite_differences(rng):
    x0 = rng.normal(size=(4,))
    x = tf.constant(x0)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.reduce_sum(tf.exp(tf.sin(x)) * x)
    f = lambda v: np.sum(np.exp(np.sin(v)) * v)  # noqa: E731
    eps = 1e-6
    numeric = [(f(x0 + eps * e) - f(x0 - eps * e)) / (2 * eps) for e in np.eye(4)]
    np.testing.assert_allclose(tape.gradient(y, x).numpy(), numeric, rtol=1e-6)


def test_replay_is_compiled_once_per_structure():
    from companion._tape import _replay

    w = tf.Variable(np.ones((3, 2), np.float32))
    before = None
    for step in range(3):
        with tf.GradientTape() as tape:
            loss = tf.reduce_sum(tf.tanh(tf.constant(np.full((4, 3), step, np.float32)) @ w))
        tape.gradient(loss, w)
        if step == 0:
            before = len(_replay._PLANS)
    assert len(_replay._PLANS) == before


def test_gradient_works_under_jax_jit():
    @jax.jit
    def grad_of_cube(value):
        x = tf.Tensor(value)
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = x * x * x
        return tape.gradient(y, x)._value

    assert float(grad_of_cube(jnp.float32(2.0))) == 12.0


def test_bad_sources_and_watch():
    with tf.GradientTape() as tape:
        with pytest.raises(ValueError, match="watch takes Tensors or Variables"):
            tape.watch(3.0)
        y = tf.constant(1.0)
    with pytest.raises(ValueError, match="every source must be a Tensor or a Variable"):
        tape.gradient(y, [1.0])


def test_html_repr_lists_the_recorded_ops():
    x = tf.Variable([1.0, 2.0], name="x")
    with tf.GradientTape() as tape:
        tf.reduce_sum(x * x)
    page = tape._repr_html_()
    assert "multiply" in page and "float32[2]" in page and "x:0" in page
    assert page.count("<tr>") == 3  # header + two ops


def test_the_repr_counts_watched_tensors_as_well_as_variables():
    x, v = tf.constant(3.0), tf.Variable(2.0)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = x * v
    assert repr(tape) == ("<companion.GradientTape stopped, persistent=False, 1 op recorded, "
                          "1 watched variable, 1 watched tensor>")
    assert "\n" not in tape._repr_html_() and "1 watched tensor" in tape._repr_html_()
    assert float(tape.gradient(y, x)) == 2.0


# -- the reverse pass from recorded values (no forward re-run) ---------------------------------

def test_gradient_through_tuple_outputs_integer_outputs_and_reused_values_matches_jax(rng):
    x0 = rng.normal(size=(4, 6)).astype(np.float32)
    w0 = rng.normal(size=(6, 6)).astype(np.float32)

    def jax_loss(x, w):
        h = jnp.tanh(x @ w)
        left, right = jnp.split(h, 2, axis=1)
        picked = jnp.take_along_axis(h, jnp.argmax(h, axis=1)[:, None], axis=1)
        return jnp.sum(left * right) + jnp.sum(jnp.exp(h) * h) + jnp.sum(picked)

    x, w = tf.Variable(x0), tf.Variable(w0)
    with tf.GradientTape() as tape:
        h = tf.tanh(x @ w)
        left, right = tf.split(h, 2, axis=1)  # one op, two outputs
        picked = tf.gather(h, tf.argmax(h, axis=1), axis=1, batch_dims=1)  # an integer output in the graph
        loss = tf.reduce_sum(left * right) + tf.reduce_sum(tf.exp(h) * h) + tf.reduce_sum(picked)
    gx, gw = tape.gradient(loss, [x, w])
    want_x, want_w = jax.grad(jax_loss, argnums=(0, 1))(x0, w0)
    np.testing.assert_allclose(gx.numpy(), want_x, rtol=1e-4, atol=1e-5)
    np.testing.assert_allclose(gw.numpy(), want_w, rtol=1e-4, atol=1e-5)


def test_intermediate_and_leaf_sources_together_match_jax():
    def jax_parts(x):
        h = jnp.sin(x) * x
        return h, jnp.sum(h ** 3) + jnp.sum(x)

    x0 = np.array([0.3, -1.2, 2.0], np.float32)
    x = tf.constant(x0)
    with tf.GradientTape() as tape:
        tape.watch(x)
        h = tf.sin(x) * x
        y = tf.reduce_sum(h ** 3) + tf.reduce_sum(x)
    gh, gx = tape.gradient(y, [h, x])
    h0 = jax_parts(x0)[0]
    np.testing.assert_allclose(gh.numpy(), 3 * h0 ** 2, rtol=1e-5)
    np.testing.assert_allclose(gx.numpy(), jax.grad(lambda v: jax_parts(v)[1])(x0), rtol=1e-5)


def test_source_that_is_the_target_and_sources_only_through_integers():
    x = tf.Variable([1.5, -2.0])
    with tf.GradientTape(persistent=True) as tape:
        y = x * 1.0
        rounded = tf.cast(tf.cast(x, tf.int32), tf.float32)
        z = tf.reduce_sum(rounded * 3.0)
    np.testing.assert_array_equal(tape.gradient(y, y).numpy(), [1.0, 1.0])
    assert tape.gradient(z, x) is None  # TF: None through an integer cast
    np.testing.assert_array_equal(tape.gradient(z, x, unconnected_gradients="zero").numpy(), [0.0, 0.0])


def test_second_order_through_a_gradient_that_uses_intermediates_matches_jax():
    x0 = np.array([0.4, 1.1], np.float32)
    x = tf.Variable(x0)
    with tf.GradientTape() as outer:
        with tf.GradientTape() as inner:
            y = tf.reduce_sum(tf.sin(tf.sin(x)) * tf.exp(x))
        g = inner.gradient(y, x)
        gsum = tf.reduce_sum(g * g)
    got = outer.gradient(gsum, x)
    f = lambda v: jnp.sum(jnp.sin(jnp.sin(v)) * jnp.exp(v))  # noqa: E731
    want = jax.grad(lambda v: jnp.sum(jax.grad(f)(v) ** 2))(x0)
    np.testing.assert_allclose(got.numpy(), want, rtol=1e-4)


def test_gradient_is_taken_at_the_recorded_values_of_a_dropout_step():
    x0 = np.linspace(-1, 1, 64, dtype=np.float32).reshape(8, 8)
    x = tf.Variable(x0)
    with tf.GradientTape() as tape:
        y = tf.nn.dropout(tf.nn.relu(x), rate=0.5, seed=7)
        loss = tf.reduce_sum(y * y)
    kept = y.numpy() != 0
    want = np.where(kept & (x0 > 0), 2 * y.numpy() * 2.0, 0.0)  # d(y^2)/dx = 2y * mask/0.5 * relu'
    np.testing.assert_allclose(tape.gradient(loss, x).numpy(), want, rtol=1e-6)


def test_an_op_returning_its_input_tensor_gets_a_new_value_in_the_reverse_pass():
    @tf.custom_gradient
    def clip_gradient(y):  # returns its input tensor itself: the tape sees output is input
        return y, lambda dy: tf.clip_by_norm(dy, 0.5)

    v = tf.Variable(2.0)
    with tf.GradientTape() as tape:
        out = clip_gradient(v * v)
    assert float(tape.gradient(out, v)) == 2.0  # TF 2.21: 2.0 (0.5 * d(v*v)/dv)


def test_a_python_if_inside_a_function_is_differentiated_by_a_tape_recording_there():
    # TF 2.21: 6.0 and -1.0 (AutoGraph's cond is one op the inner tape records); before: None
    @tf.function
    def f(x):
        with tf.GradientTape() as tape:
            tape.watch(x)
            if x > 0:
                y = x * x
            else:
                y = -x
        return tape.gradient(y, x)

    assert float(f(tf.constant(3.0))) == 6.0 and float(f(tf.constant(-2.0))) == -1.0


def test_a_target_that_is_a_source_has_gradient_one():
    # TF 2.21: [1.0, None]; [1.0, 0.0] with ZERO; 1.0 for an unwatched constant
    v0, v1 = tf.Variable(2.0), tf.Variable(2.0)
    with tf.GradientTape(persistent=True) as tape:
        r = v0
    grads = tape.gradient(r, [v0, v1])
    assert float(grads[0]) == 1.0 and grads[1] is None
    zero = tf.UnconnectedGradients.ZERO
    assert [float(g) for g in tape.gradient(r, [v0, v1], unconnected_gradients=zero)] == [1.0, 0.0]
    x = tf.constant(3.0)
    with tf.GradientTape() as tape:
        pass
    assert float(tape.gradient(x, x)) == 1.0


def test_watching_an_integer_tensor_warns_as_tf(caplog):
    """TF 2.21 logs "The dtype of the watched tensor must be floating (e.g. tf.float32), got tf.int32"
    and the gradient is None."""
    import companion as tf_

    i = tf_.constant(3)
    with caplog.at_level("WARNING", logger="tensorflow"):
        with tf_.GradientTape() as tape:
            tape.watch(i)
            k = i * i
    assert "The dtype of the watched tensor must be floating (e.g. tf.float32), got tf.int32" in caplog.text
    assert tape.gradient(k, i) is None


def test_batch_jacobian_unconnected_and_integer_sources_get_zeros_as_in_tf():
    # TF 2.21: zeros of the target's dtype whatever unconnected_gradients says (pfor on or off)
    x = tf.constant([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        y = tf.tanh(x[:, :2] / 10)
        yi = tf.cast(y * 10, tf.int32)
    for source in (tf.constant([[1.0], [2.0]]), tf.constant([[1], [2]])):
        got = tape.batch_jacobian(y, source, experimental_use_pfor=False)
        assert (got.shape, got.dtype) == ((2, 2, 1), tf.float32)
        assert not got.numpy().any()
    got = tape.batch_jacobian(yi, x)
    assert (got.shape, got.dtype) == ((2, 2, 3), tf.int32)


def test_batch_jacobian_shape_errors_as_in_tf():
    x = tf.constant([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        y = x[:, :2] * 2.0
    with pytest.raises(ValueError, match=r"^Shape \(\) must have rank at least 2$"):
        tape.batch_jacobian(y, tf.constant(2.0))
    with pytest.raises(ValueError, match=r"^Shape \(2,\) must have rank at least 2$"):
        tape.batch_jacobian(y[:, 0], x)
    with pytest.raises(IndexError):
        tape.batch_jacobian(tf.reduce_sum(y), x)
    with pytest.raises(ValueError, match=r"Need first dimension of target shape \(\(2, 2\)\) and source "
                                         r"shape \(\(3, 1\)\) to match"):
        tape.batch_jacobian(y, tf.constant([[1.0], [2.0], [3.0]]))
    for bad in ([y], {"a": y}, None):
        with pytest.raises(AttributeError, match="object has no attribute 'shape'"):
            tape.jacobian(bad, x)
    with pytest.raises(AttributeError, match="'list' object has no attribute 'shape'"):
        tape.batch_jacobian(y, [x])


def test_unconnected_zero_keeps_an_integer_sources_dtype():
    # TF 2.21: zeros_like(source), int32 for an int32 source
    x = tf.constant([1.0, 2.0])
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        y = x * 2.0
    i = tf.constant([1, 2])
    got = tape.gradient(y, i, unconnected_gradients="zero")
    assert got.dtype == tf.int32 and got.numpy().tolist() == [0, 0]
    got = tape.jacobian(y, i, unconnected_gradients=tf.UnconnectedGradients.ZERO)
    assert (got.shape, got.dtype) == ((2, 2), tf.int32)
    with pytest.raises(ValueError, match="^Unknown value for unconnected_gradients: 'bad'$"):
        tape.gradient(y, x, unconnected_gradients="bad")


def test_tape_misuse_raises_what_tf_raises(caplog):
    # TF 2.21: first lines of its messages; a tape never entered has no tape to watch or ask
    v = tf.Variable(2.0)
    with pytest.raises(AttributeError, match="^'NoneType' object has no attribute '_tape'"):
        tf.GradientTape().watch([v, tf.constant(1.0)])
    with pytest.raises(ValueError, match="^Passed in object 1.0 of type 'float', not tf.Tensor"):
        tf.GradientTape().watch(1.0)
    with pytest.raises(RuntimeError, match="^A non-persistent GradientTape can only be used"):
        tf.GradientTape(persistent=True).gradient(v, v)
    with tf.GradientTape() as tape:
        y = v * 2
        with tape.stop_recording():
            with pytest.raises(ValueError, match="^Tape is not recording."):
                with tape.stop_recording():
                    pass
    tape.watch(v)  # after the block, until its gradient, the tape still exists (TF: no error)
    assert float(tape.gradient(y, v)) == 2.0
    with pytest.raises(AttributeError, match="^'NoneType' object has no attribute '_tape'"):
        tape.watch(v)
    with pytest.raises(RuntimeError, match="^Trying to stop recording a tape which is not recording."):
        with tape.stop_recording():
            pass
    with tf.GradientTape(persistent=True) as tape:
        y = v * v
        with caplog.at_level("WARNING"):
            for _ in range(3):  # TF 2.21 logs it once per line that asks (its log_first_n token)
                assert float(tape.gradient(y, v)) == 4.0
            tape.gradient(y, v)
            tape.jacobian(y, v)  # every jacobian and batch_jacobian: one more, once
            tape.jacobian(y, v)
    warned = [r for r in caplog.records if "persistent tape inside its context" in r.getMessage()]
    assert len(warned) == 3
