"""Deferred eager execution: ops wait in a batch and run together, with eager semantics kept."""

import gc
import os
import subprocess
import sys
import threading

import jax
import jax.numpy as jnp
import numpy as np
import pytest

import companion as tf
from companion._core import _deferred
from companion._core._deferred import Pending


def _mlp_data(seed=0):
    rng = np.random.default_rng(seed)
    x = rng.normal(size=(16, 5)).astype(np.float32)
    y = rng.integers(0, 3, size=16).astype(np.int32)
    params = [(rng.normal(size=s) * 0.3).astype(np.float32) for s in [(5, 8), (8,), (8, 3), (3,)]]
    return x, y, params


def _train_eagerly(steps, x, y, params, lr=0.1):
    variables = [tf.Variable(p) for p in params]
    losses = []
    for _ in range(steps):
        with tf.GradientTape() as tape:
            hidden = tf.nn.relu(tf.constant(x) @ variables[0] + variables[1])
            logits = hidden @ variables[2] + variables[3]
            loss = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(tf.constant(y), logits))
        grads = tape.gradient(loss, variables)
        for v, g in zip(variables, grads):
            v.assign_sub(lr * g)
        losses.append(loss)  # kept pending: read only after the loop
    return [float(loss) for loss in losses], [v.numpy() for v in variables]


def _train_with_jax(steps, x, y, params, lr=0.1):
    def loss_fn(p):
        logits = jax.nn.relu(x @ p[0] + p[1]) @ p[2] + p[3]
        return -jnp.mean(jnp.take_along_axis(jax.nn.log_softmax(logits), y[:, None], axis=1))

    p = [jnp.asarray(a) for a in params]
    losses = []
    for _ in range(steps):
        loss, grads = jax.value_and_grad(loss_fn)(p)
        p = [a - lr * g for a, g in zip(p, grads)]
        losses.append(float(loss))
    return losses, [np.asarray(a) for a in p]


def test_a_deferred_training_loop_matches_jax_grad_and_runs_its_step_as_one_program():
    x, y, params = _mlp_data()
    programs = len(_deferred._PROGRAMS)
    steps = _deferred.REPEAT + 4  # the last steps run as one program
    losses, weights = _train_eagerly(steps, x, y, params)
    want_losses, want_weights = _train_with_jax(steps, x, y, params)
    np.testing.assert_allclose(losses, want_losses, rtol=1e-5, atol=1e-6)
    for got, want in zip(weights, want_weights):
        np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-6)
    assert len(_deferred._PROGRAMS) > programs  # the repeated step structure was compiled as one


def test_the_same_loop_with_deferral_off_gives_the_same_values():
    x, y, params = _mlp_data(1)
    deferred = _train_eagerly(5, x, y, params)
    _deferred.set_enabled(False)
    try:
        eager = _train_eagerly(5, x, y, params)
    finally:
        _deferred.set_enabled(True)
    np.testing.assert_allclose(deferred[0], eager[0], rtol=1e-6)
    for a, b in zip(deferred[1], eager[1]):
        np.testing.assert_allclose(a, b, rtol=1e-6, atol=1e-7)


@pytest.mark.parametrize("seen_before", [False, True])
def test_an_op_returns_a_pending_value_that_reads_correctly(seen_before):
    a = tf.constant([[1.0, 2.0], [3.0, 4.0]] if seen_before else [[1.0, 2.0, 0.0], [3.0, 4.0, 0.0]])
    if seen_before:
        tf.matmul(a, a).numpy()  # its kernel for these shapes is compiled
    product = tf.matmul(a, a) if seen_before else tf.matmul(a, tf.transpose(a))  # new shapes: traced only
    assert isinstance(product._v, Pending)
    assert product.shape == (2, 2) and product.dtype == tf.float32  # known without running
    np.testing.assert_allclose(product.numpy(), np.array([[7.0, 10.0], [15.0, 22.0]]) if seen_before
                               else np.array([[5.0, 11.0], [11.0, 25.0]]))
    assert not isinstance(product._v, Pending)


class _Compiles:
    """Counts XLA compilations while it is active (JAX's monitoring events)."""

    active = None

    def __init__(self):
        self.count = 0

    def __enter__(self):
        _Compiles.active = self
        return self

    def __exit__(self, *exc):
        _Compiles.active = None

    @staticmethod
    def _on_event(event, duration, **kwargs):
        if event.endswith("backend_compile_duration") and _Compiles.active is not None:
            _Compiles.active.count += 1


jax.monitoring.register_event_duration_secs_listener(_Compiles._on_event)


def test_a_first_training_step_on_new_shapes_compiles_one_program_and_the_next_none():
    rng = np.random.default_rng(7)
    x = tf.constant(rng.normal(size=(13, 11)).astype(np.float32))  # shapes no other test uses
    y = tf.constant(rng.integers(0, 4, size=13).astype(np.int32))
    w1, b1 = tf.Variable(rng.normal(size=(11, 9)).astype(np.float32)), tf.Variable(np.zeros(9, np.float32))
    w2, b2 = tf.Variable(rng.normal(size=(9, 4)).astype(np.float32)), tf.Variable(np.zeros(4, np.float32))
    variables = [w1, b1, w2, b2]

    def step():
        with tf.GradientTape() as tape:
            logits = tf.nn.relu(x @ w1 + b1) @ w2 + b2
            loss = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(y, logits))
        for v, g in zip(variables, tape.gradient(loss, variables)):
            v.assign_sub(0.1 * g)
        return float(loss)

    want = _train_with_jax(3, x.numpy(), y.numpy(), [v.numpy() for v in variables])[0]
    with _Compiles() as first:
        losses = [step()]
    with _Compiles() as later:
        losses += [step(), step()]
    assert first.count == 1  # the step's ops, its gradient and its updates: one program, not one each
    assert later.count == 0
    np.testing.assert_allclose(losses, want, rtol=1e-5)


def test_shape_errors_are_raised_at_the_call_even_after_other_shapes_ran():
    a = tf.ones([2, 3])
    for _ in range(3):
        tf.matmul(a, tf.ones([3, 4]))
    with pytest.raises((tf.errors.InvalidArgumentError, TypeError, ValueError)):
        tf.matmul(a, tf.ones([2, 4]))


def test_a_read_before_an_assignment_keeps_the_old_value():
    v = tf.Variable([1.0, 2.0])
    for _ in range(3):  # make the assignment's shapes known, so later ones are deferred
        v.assign_add(tf.constant([0.0, 0.0]))
    before = v + 0.0
    before_read = v.read_value()
    v.assign_add(tf.constant([10.0, 10.0]))
    after = v * 1.0
    np.testing.assert_allclose(before.numpy(), [1.0, 2.0])
    np.testing.assert_allclose(before_read.numpy(), [1.0, 2.0])
    np.testing.assert_allclose(after.numpy(), [11.0, 12.0])
    np.testing.assert_allclose(v.numpy(), [11.0, 12.0])


def test_python_control_flow_on_a_pending_tensor_sees_its_value():
    x = tf.constant(3.0)
    for _ in range(3):
        y = x * 2.0 - 1.0
    assert isinstance(y._v, Pending)
    assert bool(y > 4.0) and int(tf.cast(y, tf.int32)) == 5 and float(y) == 5.0
    assert f"{float(x * 2.0):.1f}" == "6.0"


def test_printing_a_pending_tensor_prints_its_value(capsys):
    x = tf.constant([1.0, 2.0])
    for _ in range(3):
        y = x * 3.0
    print(y)
    tf.print(x * 3.0)
    captured = capsys.readouterr()
    assert "[3. 6.]" in captured.out and "[3 6]" in captured.err  # tf.print writes to stderr


def test_a_long_loop_without_reads_runs_in_bounded_batches_and_adds_up():
    v = tf.Variable(0.0)
    one = tf.constant(1.0)
    for _ in range(3 * _deferred.LIMIT + 7):
        v.assign_add(one)
    assert float(v) == 3 * _deferred.LIMIT + 7


def test_a_pending_tensor_read_from_another_thread_is_computed():
    x = tf.constant([2.0, 4.0])
    for _ in range(3):
        y = x * x + 1.0
    assert isinstance(y._v, Pending)
    seen = []
    reader = threading.Thread(target=lambda: seen.append(y.numpy()))
    reader.start()
    reader.join(timeout=60)
    np.testing.assert_allclose(seen[0], [5.0, 17.0])


def test_numpy_functions_and_staged_functions_take_pending_tensors():
    x = tf.constant([1.0, 2.0, 3.0])
    for _ in range(3):
        y = x + 1.0

    @tf.function
    def double(t):
        return t * 2.0

    np.testing.assert_allclose(np.asarray(y), [2.0, 3.0, 4.0])
    np.testing.assert_allclose(double(x + 1.0).numpy(), [4.0, 6.0, 8.0])
    assert np.sum(x + 1.0) == pytest.approx(9.0)


def test_a_keras_model_trained_eagerly_matches_the_same_steps_with_deferral_off():
    rng = np.random.default_rng(2)
    x = rng.normal(size=(32, 6)).astype(np.float32)
    y = rng.integers(0, 4, size=32)

    def train():
        tf.keras.utils.set_random_seed(3)
        model = tf.keras.Sequential([tf.keras.layers.Dense(8, activation="relu"), tf.keras.layers.Dense(4)])
        optimizer = tf.keras.optimizers.Adam(0.01)
        loss_fn = tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True)
        for _ in range(6):
            with tf.GradientTape() as tape:
                loss = loss_fn(y, model(x, training=True))
            grads = tape.gradient(loss, model.trainable_variables)
            optimizer.apply_gradients(zip(grads, model.trainable_variables))
        return float(loss), [w.numpy() for w in model.weights], int(optimizer.iterations)

    deferred = train()
    _deferred.set_enabled(False)
    try:
        eager = train()
    finally:
        _deferred.set_enabled(True)
    assert deferred[2] == eager[2] == 6
    assert deferred[0] == pytest.approx(eager[0], rel=1e-6)
    for a, b in zip(deferred[1], eager[1]):
        np.testing.assert_allclose(a, b, rtol=1e-5, atol=1e-6)


def test_companion_deferred_0_turns_it_off():
    code = ("import companion as tf\nfrom companion._core import _deferred\n"
            "x = tf.constant(1.0)\nfor _ in range(3):\n    y = x + 1.0\n"
            "print(_deferred.enabled(), type(y._v).__name__)")
    env = dict(os.environ, COMPANION_DEFERRED="0")
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                         check=True, timeout=300).stdout.split()
    assert out[0] == "False" and out[1] != "Pending"


def test_a_function_traced_while_values_are_pending_reads_them_and_leaks_no_tracer():
    x = tf.constant([1.0, 2.0])
    v = tf.Variable([1.0, 1.0])
    for _ in range(3):
        v.assign_add(x)
        y = x * 2.0
    assert isinstance(v._v, Pending) and isinstance(y._v, Pending)

    @tf.function
    def f(a):
        return a + y + v

    np.testing.assert_allclose(f(tf.constant([0.0, 0.0])).numpy(), [6.0, 11.0])
    assert not v.is_traced and not y.is_traced
    np.testing.assert_allclose(v.numpy(), [4.0, 7.0])


def test_values_python_holds_are_kept_and_unreachable_ones_are_left_to_xla():
    x = tf.constant(np.arange(6, dtype=np.float32).reshape(2, 3))
    for make in (lambda: x * 2.0, lambda: tf.exp(x), lambda: x + 1.0, lambda: tf.reduce_sum(x)):
        make().numpy()  # each op's own kernel: the loop's batches then run op by op until REPEAT
    before = {structure: len(programs) for structure, programs in _deferred._PROGRAMS.items()}
    kept = []
    for _ in range(_deferred.REPEAT + 3):
        with tf.GradientTape():  # entering a tape runs the last iteration's batch
            pass
        hidden = x * 2.0  # held below
        total = tf.reduce_sum(tf.exp(hidden) + 1.0)  # exp(...) and the sum's input: unreachable
        kept.append((hidden, total))
    for hidden, total in kept:
        np.testing.assert_allclose(hidden.numpy(), np.arange(6).reshape(2, 3) * 2.0)
        np.testing.assert_allclose(total.numpy(), np.sum(np.exp(np.arange(6) * 2.0) + 1.0), rtol=1e-6)
    new = [live for structure, programs in _deferred._PROGRAMS.items()
           for live, _ in programs[:len(programs) - before.get(structure, 0)]]
    assert (True, False, False, True) in new


def test_a_training_loop_leaves_no_reference_cycles_for_the_garbage_collector():
    # deferred nodes and their outputs refer to each other until their batch runs; a run must
    # break every such cycle, or each step leaves garbage that only a full collection frees
    # (counted by kind: threads left by other tests, e.g. a dataset's prefetching, may make
    # garbage of their own meanwhile)
    x, y, params = _mlp_data(4)
    _train_eagerly(_deferred.REPEAT + 2, x, y, params)  # compiles and caches out of the way
    gc.collect()
    gc.disable()
    gc.set_debug(gc.DEBUG_SAVEALL)
    try:
        _train_eagerly(_deferred.REPEAT + 4, x, y, params)
        gc.collect()
        kinds = (Pending, _deferred._Node, _deferred._Batch, tf.Tensor)
        found = [type(o).__name__ for o in gc.garbage if isinstance(o, kinds)]
    finally:
        gc.set_debug(0)
        gc.garbage.clear()
        gc.enable()
    assert found == []


def test_a_variable_holding_a_pending_value_copies_and_pickles_as_its_value():
    import copy
    import pickle

    v = tf.Variable([1.0, 2.0])
    for _ in range(3):
        v.assign_add(tf.constant([1.0, 1.0]))
    assert isinstance(v._v, Pending)
    copied = copy.deepcopy(v)
    restored = pickle.loads(pickle.dumps(v._v))
    np.testing.assert_allclose(copied.numpy(), [4.0, 5.0])
    np.testing.assert_allclose(np.asarray(restored), [4.0, 5.0])


def test_a_printing_function_called_under_a_tape_prints_at_every_call(capfd):
    # a fused batch runs each op's pure function; a function's prints must not be left out of it
    x = tf.Variable(2.0)

    @tf.function
    def triple(v):
        tf.print("called with", v)
        return v * 3.0

    for _ in range(_deferred.REPEAT + 3):
        with tf.GradientTape() as tape:
            y = triple(x) * 2.0
        assert float(tape.gradient(y, x)) == 6.0
    assert capfd.readouterr().err.count("called with 2") == _deferred.REPEAT + 3


def test_the_same_ops_on_other_shapes_with_another_number_of_outputs_run_correctly():
    # a batch's structure names its ops and wiring, not its input shapes: unstack's number of
    # outputs follows the shape, so the structure must count them
    for n in (3, 4, 3, 4):
        with tf.GradientTape():  # runs the previous iteration's batch
            pass
        x = tf.constant(np.arange(n * 2, dtype=np.float32).reshape(n, 2))
        rows = tf.unstack(x * 2.0)
        assert [r.numpy().tolist() for r in rows] == [[4.0 * i, 4.0 * i + 2.0] for i in range(n)]


def test_an_op_failing_when_it_runs_raises_its_own_error_and_the_ops_before_it_keep_their_values():
    from companion._core._op import Op

    def fail(a):
        raise ValueError("boom: this op fails when it runs")

    boom = Op("boom", lambda a: jax.pure_callback(fail, jax.ShapeDtypeStruct(a.shape, a.dtype), a))
    x = tf.constant([1.0, 2.0, 3.0, 4.0, 5.0])
    doubled = x * 2.0
    failed = boom(doubled)  # traced, not run: the call returns
    assert isinstance(failed._v, Pending)
    with pytest.raises(Exception, match="boom: this op fails"):
        failed.numpy()
    np.testing.assert_allclose(doubled.numpy(), [2.0, 4.0, 6.0, 8.0, 10.0])


def test_random_draws_with_a_pending_stream_state_run_in_a_strategy_scope_too():
    from companion._ops import _random

    tf.random.set_seed(3)
    first = _random.next_key()  # eager: the stream's new state waits in the batch
    assert _random._stream(None)._v.__class__ is Pending
    with tf.distribute.OneDeviceStrategy("/cpu:0").scope():  # deferral is off in a scope
        second = _random.next_key()
        assert isinstance(second, jax.Array)  # ran at once, reading the pending state
        v = tf.Variable(tf.random.normal([3]))
    _deferred.set_enabled(False)
    try:  # the same draws op by op
        tf.random.set_seed(3)
        expected = [np.asarray(_random.next_key()), np.asarray(_random.next_key())]
        expected_v = tf.random.normal([3]).numpy()
    finally:
        _deferred.set_enabled(True)
    np.testing.assert_array_equal(np.asarray(first), expected[0])
    np.testing.assert_array_equal(np.asarray(second), expected[1])
    np.testing.assert_array_equal(v.numpy(), expected_v)


def test_a_variable_keeps_its_pending_initial_value_until_read():
    tf.random.set_seed(4)
    v = tf.Variable(tf.random.uniform([5, 2]))
    assert v._v.__class__ is Pending and v.shape == (5, 2)
    w = tf.Variable(v * 2.0)  # made from the pending value, also pending
    np.testing.assert_allclose(w.numpy(), 2 * v.numpy(), rtol=1e-6)
    assert 0 <= v.numpy().min() and v.numpy().max() < 1
