"""custom_gradient: grad_fn is used eagerly, inside function and around it, also for Variables;
values are TF 2.21's."""

import pytest

import companion as tf


@tf.custom_gradient
def log1pexp(x):
    e = tf.exp(x)

    def grad(upstream):
        return upstream * (1 - 1 / (1 + e))

    return tf.math.log(1 + e), grad


def _gradient(fn, *xs):
    with tf.GradientTape() as tape:
        tape.watch(list(xs))
        y = fn(*xs)
    return tape.gradient(y, list(xs))


def test_the_gradient_comes_from_grad_fn():
    x = tf.constant(100.0)
    assert float(_gradient(log1pexp, x)[0]) == 1.0  # the naive gradient would be nan
    assert float(log1pexp(tf.constant(1.0))) == pytest.approx(1.3132616)
    assert log1pexp.__name__ == "log1pexp"


def test_several_inputs_and_outputs_and_second_order():
    @tf.custom_gradient
    def clip_grad(x, y):
        return x * y, lambda dz: (tf.clip_by_value(dz, -0.1, 0.1), dz * 2)

    ga, gb = _gradient(lambda a, b: clip_grad(a, b) * 5.0, tf.constant(2.0), tf.constant(3.0))
    assert float(ga) == pytest.approx(0.1) and float(gb) == 10.0

    @tf.custom_gradient
    def multi_out(x):
        return (x * 2.0, x * 3.0), lambda d1, d2: d1 + 10.0 * d2

    assert float(_gradient(lambda x: sum(multi_out(x)), tf.constant(1.0))[0]) == 11.0

    @tf.custom_gradient
    def sq(x):
        return x * x, lambda d: d * 2 * x

    x = tf.constant(100.0)
    with tf.GradientTape() as outer:
        outer.watch(x)
        with tf.GradientTape() as inner:
            inner.watch(x)
            y = sq(x)
        g = inner.gradient(y, x)
    assert float(g) == 200.0 and float(outer.gradient(g, x)) == 2.0


def test_variables_get_gradients_from_grad_fn():
    v = tf.Variable(3.0)

    @tf.custom_gradient
    def with_var(x):
        def grad(dy, variables=None):
            assert variables == [v]
            return dy * 10.0, [dy * 100.0]

        return x * v, grad

    x = tf.constant(100.0)
    gx, gv = _gradient_with(with_var, x, v)
    assert (float(gx), float(gv)) == (10.0, 100.0)
    gx, gv = _gradient_with(tf.function(with_var), x, v)  # a tape around a function
    assert (float(gx), float(gv)) == (10.0, 100.0)

    @tf.custom_gradient
    def no_kwarg(x):
        return x * v, lambda dy: dy

    with pytest.raises(TypeError, match="must accept keyword argument 'variables'"):
        no_kwarg(x)


def _gradient_with(fn, x, v):
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = fn(x)
    return tape.gradient(y, [x, v])


def test_a_tape_inside_a_function():
    @tf.function
    def staged(x):
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = log1pexp(x)
        return tape.gradient(y, x)

    assert float(staged(tf.constant(100.0))) == 1.0


def test_wrong_number_of_gradients():
    @tf.custom_gradient
    def wrong(x, y):
        return x + y, lambda d: d

    with pytest.raises(ValueError, match="expected to return 2 gradients, but returned 1"):
        _gradient(wrong, tf.constant(1.0), tf.constant(2.0))


def test_scalars_met_inside_a_gradient_replay_do_not_leak_into_later_programs():
    # grad_fn runs under a JAX trace; the Python scalars it converts must not be cached as tracers
    @tf.custom_gradient
    def clipped(x):
        return x * 1.0, lambda dy: tf.clip_by_value(dy, -0.25, 0.25) * 7.0

    _gradient(lambda a: clipped(a) * 3.0, tf.constant(2.0))

    @tf.function
    def scale(x):
        return x * 7.0 + tf.clip_by_value(x, -0.25, 0.25)

    assert float(scale(tf.constant(1.0))) == 7.25
    assert float(scale(tf.constant(2.0))) == 14.25


def test_grad_fn_errors_say_what_tf_says_on_their_first_line():
    v = tf.Variable(2.0, name="v")

    @tf.custom_gradient
    def no_variables_keyword(x):
        return x * v, lambda upstream: upstream

    @tf.custom_gradient
    def too_few_variable_grads(x):
        def grad_fn(upstream, variables=None):
            return upstream * 10.0, []
        return x * v, grad_fn

    x = tf.constant(3.0)
    with pytest.raises(TypeError) as info:
        no_variables_keyword(x)
    assert str(info.value).split("\n")[0] == (
        "@tf.custom_gradient grad_fn must accept keyword argument 'variables', since function uses "
        "variables: [<companion.Variable 'v:0' shape=() dtype=float32, numpy=2.0>]")
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = too_few_variable_grads(x)
    with pytest.raises(ValueError) as info:
        tape.gradient(y, [x, v])
    assert str(info.value).split("\n")[0] == \
        "Must return gradient for each variable from @custom_gradient grad_fn."


def test_a_none_from_grad_fn_gives_none_where_no_other_path_reaches_the_source():
    """TF 2.21 (probe): grad_fn's None means no gradient flows back along that input."""

    @tf.custom_gradient
    def f(x, y):
        return x * y, lambda dy: (dy * 2.0, None)

    @tf.custom_gradient
    def only_none(x):
        return x * x, lambda dy: None

    x, y = tf.constant(3.0), tf.constant(4.0)
    with tf.GradientTape(persistent=True) as tape:
        tape.watch([x, y])
        z = f(x, y)
        w = z + y * 5.0
        alone, plus = only_none(x), only_none(x) + x
    gx, gy = tape.gradient(z, [x, y])
    assert float(gx) == 2.0 and gy is None
    assert [float(g) for g in tape.gradient(w, [x, y])] == [2.0, 5.0]  # another path reaches y
    assert float(tape.gradient(z, y, unconnected_gradients="zero")) == 0.0
    assert tape.gradient(alone, x) is None and float(tape.gradient(plus, x)) == 1.0

    @tf.function
    def staged(x, y):
        with tf.GradientTape() as inner:
            inner.watch([x, y])
            z = f(x, y)
        return inner.gradient(z, [x, y])

    gx, gy = staged(x, y)
    assert float(gx) == 2.0 and gy is None


def test_a_none_from_grad_fn_inside_a_staged_function_is_zeros_at_its_boundary():
    """TF 2.21 (probe): a tf.function's gradient gives zeros for an input its custom gradient
    answered None for; the None is of the inner op's input, never of the function's same position."""

    @tf.custom_gradient
    def f(x, y):
        return x * y, lambda dy: (None, dy * x)

    @tf.function
    def swapped(a, b):
        return f(b, a) + a * 0.0

    @tf.function
    def same(a, b):
        return f(a, b) * 1.0

    a, b = tf.constant(2.0), tf.constant(3.0)
    with tf.GradientTape(persistent=True) as tape:
        tape.watch([a, b])
        y, y2 = swapped(a, b), same(a, b)
    assert [float(g) for g in tape.gradient(y, [a, b])] == [3.0, 0.0]
    assert [float(g) for g in tape.gradient(y2, [a, b])] == [0.0, 2.0]


def test_a_none_from_grad_fn_and_variables_and_jacobians():
    """TF 2.21 (probe): None in the variable gradients is None for that Variable; a Jacobian
    through a None-only path is None (unconnected_gradients='zero': zeros)."""
    v1, v2 = tf.Variable(2.0), tf.Variable(5.0)

    @tf.custom_gradient
    def g(x):
        def grad(dy, variables=None):
            return dy * v1 * v2, [dy * x * v2, None]
        return x * v1 * v2, grad

    @tf.custom_gradient
    def first_none(a, b):
        return a + b, lambda dy: (None, dy)

    x, xv = tf.constant(3.0), tf.constant([1.0, 2.0])
    with tf.GradientTape(persistent=True) as tape:
        tape.watch([x, xv])
        y = g(x) * 3.0
        cut = first_none(xv, tf.constant([0.0, 0.0]))
        kept = first_none(xv, xv * 2.0)
    gx, g1, g2 = tape.gradient(y, [x, v1, v2])
    assert (float(gx), float(g1), g2) == (30.0, 45.0, None)
    assert tape.jacobian(cut, xv) is None
    assert tape.jacobian(cut, xv, unconnected_gradients="zero").numpy().tolist() == [[0.0, 0.0]] * 2
    assert tape.jacobian(kept, xv).numpy().tolist() == [[2.0, 0.0], [0.0, 2.0]]
