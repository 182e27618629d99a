"""Functional control flow (cond, while_loop, switch_case, case): eager, staged, and their gradients."""

import collections
import warnings

import jax
import numpy as np
import pytest

import companion as tf


def _jax_cond(x):
    return jax.lax.cond(x > 0, lambda v: v * v, lambda v: -3.0 * v, x)


@pytest.mark.parametrize("value", [2.0, -1.5])
def test_cond_eager_and_staged_match_lax_cond_with_gradients(value):
    def branchy(x):
        return tf.cond(x > 0, lambda: x * x, lambda: -3.0 * x)

    x = tf.constant(value, tf.float64)
    for fn in (branchy, tf.function(branchy)):
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = fn(x)
        assert float(y) == pytest.approx(float(_jax_cond(value)))
        assert float(tape.gradient(y, x)) == pytest.approx(float(jax.grad(_jax_cond)(value)))


def test_cond_returns_nested_structures_and_python_predicates():
    Pair = collections.namedtuple("Pair", "left right")

    @tf.function
    def pick(x):
        return tf.cond(x > 0, lambda: {"b": Pair(x, x + 1), "a": [x * 2]},
                       lambda: {"b": Pair(-x, x), "a": [x * 0]})

    out = pick(tf.constant(3))
    assert isinstance(out["b"], Pair) and int(out["b"].right) == 4 and int(out["a"][0]) == 6
    out = pick(tf.constant(-3))
    assert int(out["b"].left) == 3 and int(out["a"][0]) == 0
    assert tf.cond(True, lambda: "yes", lambda: "no") == "yes"
    a, b = tf.Variable(1.0), tf.Variable(2.0)
    pick_variable = tf.function(lambda x: tf.cond(x > 0, lambda: a, lambda: b))
    assert float(pick_variable(tf.constant(1.0))) == 1.0 and float(pick_variable(tf.constant(-1.0))) == 2.0
    assert int(tf.cond(tf.constant(False), lambda: 1, lambda: 2)) == 2


def test_cond_errors():
    with pytest.raises(TypeError, match="must be callables"):
        tf.cond(True, 1, 2)
    staged = tf.function(lambda x: tf.cond(x > 0, lambda: (x, x), lambda: x))
    with pytest.raises(ValueError, match="same structure"):
        staged(tf.constant(1.0))
    mixed = tf.function(lambda x: tf.cond(x > 0, lambda: x, lambda: tf.cast(x, tf.int32)))
    with pytest.raises(TypeError, match="one dtype and shape"):
        mixed(tf.constant(1.0))


def _np_collatz_steps(n):
    steps = 0
    while n != 1:
        n = n // 2 if n % 2 == 0 else 3 * n + 1
        steps += 1
    return steps


def test_while_loop_eager_and_staged_match_python():
    def steps(n):
        def body(i, m):
            return i + 1, tf.where(m % 2 == 0, m // 2, 3 * m + 1)
        return tf.while_loop(lambda i, m: m != 1, body, [tf.constant(0), n])[0]

    staged = tf.function(steps)
    for n in (6, 7, 27):
        assert int(steps(tf.constant(n))) == _np_collatz_steps(n)
        assert int(staged(tf.constant(n))) == _np_collatz_steps(n)


def test_while_loop_nested_loop_vars_and_maximum_iterations():
    def run(x):
        state = {"total": tf.constant(0.0), "terms": (x, tf.constant(1))}

        def body(i, s):
            value, k = s["terms"]
            return i + 1, {"total": s["total"] + value, "terms": (value * 0.5, k + 1)}

        return tf.while_loop(lambda i, s: s["total"] < 100.0, body, (tf.constant(0), state),
                             maximum_iterations=4)

    for fn in (run, tf.function(run)):
        i, s = fn(tf.constant(8.0))
        assert int(i) == 4 and float(s["total"]) == 8 + 4 + 2 + 1
        assert int(s["terms"][1]) == 5
    staged_limit = tf.function(lambda n: tf.while_loop(lambda v: True, lambda v: v + 2, [tf.constant(0)],
                                                       maximum_iterations=n))
    assert int(staged_limit(tf.constant(7))[0]) == 14


def test_while_loop_with_maximum_iterations_differentiates_through_function():
    def power(x):
        return tf.while_loop(lambda v, k: k < 3, lambda v, k: (v * x, k + 1), [x, 0],
                             maximum_iterations=3)[0]

    def oracle(x):
        return jax.lax.fori_loop(0, 3, lambda _, v: v * x, x)

    x = tf.constant(1.7, tf.float64)
    for fn in (power, tf.function(power)):
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = fn(x)
        assert float(y) == pytest.approx(float(oracle(1.7)))
        assert float(tape.gradient(y, x)) == pytest.approx(float(jax.grad(oracle)(1.7)))


def test_while_loop_errors():
    with pytest.raises(ValueError, match="structure of loop_vars"):
        tf.while_loop(lambda a, b: a < 3, lambda a, b: (a + 1, (b, b)), [0, 1])
    staged = tf.function(lambda x: tf.while_loop(lambda v: v < 10, lambda v: tf.concat([v, v], 0), [x]))
    with pytest.raises(ValueError, match=r"shape \(1,\) before the while_loop, but shape \(2,\)"):
        staged(tf.constant([1]))  # TF 2.21: a ValueError too (a loop variable changed shape)
    retyped = tf.function(
        lambda x: tf.while_loop(lambda v: v < 10, lambda v: tf.cast(v, tf.float32) + 1, [x]))
    with pytest.raises(TypeError, match="keep its dtype and shape"):
        retyped(tf.constant(1))


def test_switch_case():
    fns = {0: lambda: tf.constant(10.0), 1: lambda: tf.constant(20.0), 2: lambda: tf.constant(30.0)}
    staged = tf.function(lambda i: tf.switch_case(i, fns))
    staged_default = tf.function(
        lambda i: tf.switch_case(i, list(fns.values()), default=lambda: tf.constant(-1.0)))
    for i in range(-1, 5):
        last = 30.0 if not 0 <= i <= 2 else 10.0 * (i + 1)
        assert float(tf.switch_case(i, fns)) == last
        assert float(staged(tf.constant(i))) == last
        assert float(staged_default(tf.constant(i))) == (last if 0 <= i <= 2 else -1.0)
    pairs = [(1, lambda: tf.constant(6)), (0, lambda: tf.constant(1))]
    assert int(tf.switch_case(5, pairs)) == 6 and int(tf.switch_case(0, pairs)) == 1


@pytest.mark.parametrize("branches", [{0: lambda: 1, 3: lambda: 3}, {1: lambda: 1, 2: lambda: 2},
                                      [(0, lambda: 0), (2, lambda: 2)]])
def test_switch_case_branch_indices_must_be_0_to_n(branches):
    # TF 2.21: ValueError "branch indices (keys) must form contiguous range of [0 to 2)", for any index
    for index in (0, 1, 5):
        with pytest.raises(ValueError, match=r"contiguous range \[0, 2\)"):
            tf.switch_case(tf.constant(index), branches)


def test_case():
    def sign(x):
        return tf.case([(x < 0, lambda: tf.constant(-1)), (x > 0, lambda: tf.constant(1))],
                       default=lambda: tf.constant(0))

    staged = tf.function(sign)
    for v in (-2, 0, 5):
        assert int(sign(tf.constant(v))) == int(np.sign(v)) == int(staged(tf.constant(v)))
    with pytest.raises(tf.InvalidArgumentError, match="none of the conditions"):
        tf.case([(tf.constant(False), lambda: 1)])
    # TF 2.21 does not check exclusive=True: two true predicates give the first one's value,
    # eagerly and inside a function
    x = tf.constant(5)
    pairs = [(x > 1, lambda: tf.constant(1)), (x > 2, lambda: tf.constant(2))]
    assert int(tf.case(pairs, exclusive=True)) == 1
    staged = tf.function(lambda x: tf.case([(x > 1, lambda: tf.constant(1)), (x > 2, lambda: tf.constant(2))],
                                           exclusive=True))
    assert int(staged(x)) == 1


def _kinds(result):
    return type(result).__name__, [int(v) for v in tf.nest.flatten(result)]


def test_while_loop_result_takes_tf_structure_rules():
    # TF 2.21: eagerly the result is what body returned (a tuple for a tuple); loop_vars (as
    # tensors) when the body never ran; inside a function the structure of loop_vars
    def loops():
        return [tf.while_loop(lambda i: i < 3, lambda i: (i + 1,), [tf.constant(0)]),
                tf.while_loop(lambda i: i < 3, lambda i: [i + 1], (tf.constant(0),)),
                tf.while_loop(lambda i, j: i < 0, lambda i, j: (i + 1, j), [0, 1]),
                tf.while_loop(lambda i, j: i < 2, lambda i, j: (i + 1, j), [0, 1])]

    eager = [_kinds(r) for r in loops()]
    assert eager == [("tuple", [3]), ("list", [3]), ("list", [0, 1]), ("tuple", [2, 1])]
    assert all(isinstance(v, tf.Tensor) for r in loops() for v in r)
    staged = [_kinds(r) for r in tf.function(loops)()]
    assert staged == [("list", [3]), ("tuple", [3]), ("list", [0, 1]), ("list", [2, 1])]


def test_while_loop_eager_body_structure_errors_are_tfs():
    # TF 2.21 eagerly: a bare tensor for [i] is TypeError; a list for a nested tuple is TypeError;
    # a wrong number of loop variables is ValueError. Inside a function a bare tensor is accepted.
    with pytest.raises(TypeError, match="list or tuple"):
        tf.while_loop(lambda i: i < 10, lambda i: i + 1, [tf.constant(0)])
    with pytest.raises(TypeError, match="list/tuple types"):
        tf.while_loop(lambda p: p[0] < 2, lambda p: ([p[0] + 1, p[1]],), [(tf.constant(0), 1)])
    with pytest.raises(ValueError, match="structure of loop_vars"):
        tf.while_loop(lambda i, j: i < 2, lambda i, j: (i + 1,), [0, 1])
    staged = tf.function(lambda: tf.while_loop(lambda i: i < 10, lambda i: i + 1, [tf.constant(0)]))
    assert _kinds(staged()) == ("list", [10])


def test_a_tape_inside_the_function_differentiates_through_cond():
    w = tf.Variable(2.0, dtype=tf.float64)

    @tf.function
    def grads(x):
        with tf.GradientTape(persistent=True) as tape:
            tape.watch(x)
            y = tf.cond(x > 0, lambda: x * x * w, lambda: -3.0 * x)
        return tape.gradient(y, x), tape.gradient(y, w)

    def oracle(x, w_value):
        return jax.lax.cond(x > 0, lambda: x * x * w_value, lambda: -3.0 * x)

    for value in (1.5, -2.0):
        dx, dw = grads(tf.constant(value, tf.float64))
        want_dx, want_dw = jax.grad(oracle, argnums=(0, 1))(value, 2.0)
        assert float(dx) == pytest.approx(float(want_dx)) and float(dw) == pytest.approx(float(want_dw))
    w.assign(5.0)  # the Variable's current value is used, not the one seen when tracing
    assert float(grads(tf.constant(1.0, tf.float64))[0]) == pytest.approx(10.0)


def test_inner_tape_warns_when_a_branch_assigns_a_variable():
    v = tf.Variable(0.0)

    @tf.function
    def inner(x):
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = tf.cond(x > 0, lambda: v.assign(x), lambda: v.assign(-x))
        return y

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        inner(tf.constant(2.0))
    assert any("Put the tape around" in str(w.message) for w in caught)
    assert float(v) == 2.0


def test_a_tape_inside_the_function_differentiates_a_bounded_while_loop():
    w = tf.Variable(1.5, dtype=tf.float64)

    @tf.function
    def grads(x):
        with tf.GradientTape(persistent=True) as tape:
            tape.watch(x)
            y, k = tf.while_loop(lambda v, k: k < 3, lambda v, k: (v * x * w, k + 1), [x, 0],
                                 maximum_iterations=5)
        return tape.gradient(y, x), tape.gradient(y, w), k

    def oracle(x, w_value):
        return jax.lax.fori_loop(0, 3, lambda _, v: v * x * w_value, x)

    dx, dw, k = grads(tf.constant(2.0, tf.float64))
    want_dx, want_dw = jax.grad(oracle, argnums=(0, 1))(2.0, 1.5)
    assert int(k) == 3
    assert float(dx) == pytest.approx(float(want_dx)) and float(dw) == pytest.approx(float(want_dw))
