"""`Strategy.run` of a mirrored strategy on several replicas stages the replica function once per
signature eagerly (TF runs it op by op on each replica); inside a function it is traced with each trace
of the function, as in TF. On one replica, and with a one-device strategy, an eager `run` calls the
function as written, as TF does."""

import numpy as np

import companion as tf
from tests.distribute.replicas import run_with_devices


def test_an_eager_run_on_one_replica_runs_the_python_of_each_call():
    strategy = tf.distribute.MirroredStrategy(["/cpu:0"])
    calls = []

    def step(x):
        calls.append(tuple(x.shape))
        return x * 2.0

    first = strategy.run(step, args=(tf.constant([1.0, 2.0]),))
    again = strategy.run(step, args=(tf.constant([3.0, 4.0]),))
    other = strategy.run(step, args=(tf.constant([1.0, 2.0, 3.0]),))
    assert calls == [(2,), (2,), (3,)]  # TF 2.21: op by op, every call
    np.testing.assert_allclose(first.numpy(), [2.0, 4.0])
    np.testing.assert_allclose(again.numpy(), [6.0, 8.0])
    np.testing.assert_allclose(other.numpy(), [2.0, 4.0, 6.0])


def test_first_call_variable_creation_inside_run_happens_once():
    strategy = tf.distribute.MirroredStrategy(["/cpu:0"])
    with strategy.scope():
        w = tf.Variable(2.0)
        optimizer = tf.keras.optimizers.Adam(0.1)
    created = []

    def step(x):
        with tf.GradientTape() as tape:
            loss = (w * x - 1.0) ** 2
        grads = tape.gradient(loss, [w])
        before = len(optimizer.variables)
        optimizer.apply_gradients(zip(grads, [w]))
        created.append(len(optimizer.variables) - before)
        return loss

    @tf.function
    def train(x):
        return strategy.run(step, args=(x,))

    losses = [float(train(tf.constant(1.0))) for _ in range(3)]
    # TF 2.21: the first call traces twice (the second trace checks that no Variable is created), and
    # each trace runs step: Adam's two slots come from the first
    assert created == [2, 0]
    assert train.experimental_get_tracing_count() == 2
    assert losses[2] < losses[0]


def test_a_one_device_strategy_runs_the_python_of_each_call_and_each_trace():
    strategy = tf.distribute.OneDeviceStrategy("/cpu:0")
    calls = []

    def step(x):
        calls.append(x.numpy().tolist() if tf.executing_eagerly() else "traced")
        return x * 2.0

    strategy.run(step, args=(tf.constant([1.0, 2.0]),))
    strategy.run(step, args=(tf.constant([3.0, 4.0]),))
    train = tf.function(lambda x: strategy.run(step, args=(x,)))
    doubled = [train(tf.constant([5.0])) for _ in range(2)]
    # TF 2.21: eagerly, every call runs step; in a function, its one trace does
    assert calls == [[1.0, 2.0], [3.0, 4.0], "traced"]
    np.testing.assert_allclose(doubled[1].numpy(), [10.0])


def test_an_eager_run_on_four_replicas_runs_the_python_of_each_call_and_reuses_the_compiled_program():
    out = run_with_devices("""
from jax._src import monitoring
compiles = []
monitoring.register_event_duration_secs_listener(
    lambda event, duration, **kw: compiles.append(1) if event.endswith("backend_compile_duration") else None)
calls = []
strategy = tf.distribute.MirroredStrategy()
def step(x):
    calls.append(1)
    return tf.distribute.get_replica_context().all_reduce("SUM", x)
results = [strategy.run(step, args=(tf.constant(float(i)),)) for i in range(3)]
sums = [float(r.values[0]) for r in results]
before = len(compiles)
more = [strategy.run(step, args=(tf.constant(float(i)),)) for i in range(3)]
emit(calls=len(calls), sums=sums, recompiles=len(compiles) - before)
""")
    # TF 2.21 runs the Python of an eager MirroredStrategy.run on every call (once per replica there,
    # in one thread each; companion traces it once per call for all replicas)
    assert out["calls"] == 6
    assert out["sums"] == [0.0, 4.0, 8.0]
    assert out["recompiles"] == 0  # the same trace again: its compiled program is reused


def test_an_eager_run_on_four_replicas_sees_the_current_values_of_what_the_function_closes_over():
    out = run_with_devices("""
strategy = tf.distribute.MirroredStrategy()
scale = 1.0
held = {"t": tf.constant(1.0)}
def scaled(x):
    return x * scale
def shifted(x):
    return x + held["t"]
first = []
for s in (1.0, 2.0, 3.0):
    scale = s
    first.append(strategy.experimental_local_results(strategy.run(scaled, args=(tf.constant(1.0),))))
second = []
for s in (1.0, 5.0, 5.0):
    held["t"] = tf.constant(s)
    second.append(strategy.experimental_local_results(strategy.run(shifted, args=(tf.constant(1.0),))))
emit(first=[[float(v) for v in r] for r in first], second=[[float(v) for v in r] for r in second])
""")
    # TF 2.21 (2 replicas, probe; 4 here): a changed Python number or captured tensor is used at once
    assert out["first"] == [[1.0] * 4, [2.0] * 4, [3.0] * 4]
    assert out["second"] == [[2.0] * 4, [6.0] * 4, [6.0] * 4]
