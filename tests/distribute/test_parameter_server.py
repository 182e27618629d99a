"""ParameterServerStrategy and ClusterCoordinator on real ps and worker processes.

`create_local_cluster` starts the ps and worker tasks as separate processes; this test
process is the chief. One cluster (2 workers, 2 ps) serves most tests; the worker-failure
test starts its own and SIGKILLs a worker mid-training. Oracles: NumPy's least-squares
solution, the values written, and TF's documented semantics (errors from ``join``,
rescheduling after a worker is lost).
"""

import json
import os
import shutil
import signal
import subprocess
import sys
import time

import numpy as np
import pytest

import companion as tf

pytestmark = [pytest.mark.slow, pytest.mark.skipif(os.name != "posix", reason="POSIX processes and signals")]

TRUE_W = np.array([[1.0], [-2.0], [3.0]], "float32")


def regression_data(n=256, seed=0):
    rng = np.random.default_rng(seed)
    x = rng.normal(size=(n, 3)).astype("float32")
    y = (x @ TRUE_W + 0.5 + 0.1 * rng.normal(size=(n, 1))).astype("float32")
    return x, y


def dataset_fn():
    x, y = regression_data()
    dataset = tf.data.Dataset.from_tensor_slices((x, y)).shuffle(256, seed=1)
    return dataset.batch(32, drop_remainder=True).repeat()


def short_dataset_fn():
    return tf.data.Dataset.range(3).map(lambda i: tf.cast(i, tf.float32))


def slow_dataset_fn():
    def slow():
        x, y = regression_data()
        for i in range(10**6):
            time.sleep(0.03)
            j = (i * 32) % 256
            yield x[j:j + 32], y[j:j + 32]
    return tf.data.Dataset.from_generator(slow, output_signature=(
        tf.TensorSpec([32, 3], tf.float32), tf.TensorSpec([32, 1], tf.float32)))


@pytest.fixture(scope="module")
def cluster():
    with tf.distribute.experimental.create_local_cluster(num_workers=2, num_ps=2) as local:
        yield local
    for pid in local.ps_pids + local.worker_pids:
        assert not _running(pid)


@pytest.fixture(scope="module")
def strategy(cluster):
    return tf.distribute.experimental.ParameterServerStrategy(cluster.cluster_resolver)


@pytest.fixture(scope="module")
def coordinator(strategy):
    return tf.distribute.experimental.coordinator.ClusterCoordinator(strategy)


def _running(pid):
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    with open(f"/proc/{pid}/stat") as stat:  # a zombie (exited, not yet reaped) is not running
        return stat.read().split(")")[-1].split()[0] != "Z"


def sgd_step(strategy, w, b, lr=0.05):
    @tf.function
    def step(iterator):
        def replica_fn(batch):
            x, y = batch
            with tf.GradientTape() as tape:
                loss = tf.reduce_mean((tf.matmul(x, w) + b - y) ** 2)
            gw, gb = tape.gradient(loss, [w, b])
            w.assign_sub(lr * gw)
            b.assign_sub(lr * gb)
            return loss
        return strategy.reduce("SUM", strategy.run(replica_fn, args=(next(iterator),)), axis=None)
    return step


def test_variables_live_on_ps_tasks_round_robin(strategy):
    with strategy.scope():
        a = tf.Variable([1.0, 2.0])
        b = tf.Variable(3.0)
        c = tf.Variable(np.zeros((2, 2), "float32"))
    tasks = [int(v.device.split("task:")[1].split("/")[0]) for v in (a, b, c)]
    assert tasks[1] == (tasks[0] + 1) % 2 and tasks[2] == tasks[0]
    assert a.device.startswith("/job:ps/replica:0/task:")
    a.assign([5.0, 6.0])  # writes go to the ps task, reads come from it
    a.assign_add([1.0, 1.0])
    b.assign_sub(1.0)
    np.testing.assert_array_equal(a.numpy(), [6.0, 7.0])
    assert float(b) == 2.0
    np.testing.assert_array_equal((a * 2).numpy(), [12.0, 14.0])
    stores = strategy._stores
    assert sum(s.stats()["variables"] for s in stores) >= 3


def test_async_sgd_converges_to_least_squares_with_staleness(strategy, coordinator):
    with strategy.scope():
        w = tf.Variable(tf.zeros([3, 1]))
        b = tf.Variable(0.0)
    iterator = iter(coordinator.create_per_worker_dataset(dataset_fn))
    step = sgd_step(strategy, w, b)
    before = len(coordinator.staleness)
    losses = [coordinator.schedule(step, args=(iterator,)) for _ in range(160)]
    coordinator.join()
    assert coordinator.done()
    x, y = regression_data()
    solution, *_ = np.linalg.lstsq(np.hstack([x, np.ones((256, 1), "float32")]), y, rcond=None)
    staleness = coordinator.staleness[before:]
    # converged; but on a loaded machine one worker can be held up so long that a gradient taken
    # at the first weights lands among the last updates (async SGD): it moves w by at most
    # lr * |gradient at w=0| = 0.05 * 2 * |w*|, about 0.35, which later updates have not undone
    tolerance = 2e-2 if max(staleness[-30:]) <= 4 else 0.4  # (30 updates shrink an error 25-fold)
    np.testing.assert_allclose(w.numpy(), solution[:3], atol=tolerance)
    np.testing.assert_allclose(float(b), solution[3, 0], atol=tolerance)
    assert losses[-1].fetch() < 0.1 * losses[0].fetch()
    assert len(staleness) == 160 and min(staleness) >= 0
    assert max(staleness) > 0  # two workers ran at once: some gradients missed an update
    assert all(r.staleness is not None for r in losses)
    log = coordinator.update_log[before:]
    assert [u["staleness"] for u in log] == staleness
    assert {u["worker"] for u in log} == {0, 1} and {r.worker for r in losses} == {0, 1}


def test_keras_model_and_optimizer_slots_on_ps(strategy, coordinator):
    with strategy.scope():
        model = tf.keras.Sequential([tf.keras.Input(shape=(3,)), tf.keras.layers.Dense(1)])
        # a slot per weight; a small step: updates from stale weights (a loaded machine lets one worker
        # run many steps while the other computes one) then oscillate far less around the solution
        optimizer = tf.keras.optimizers.SGD(0.02, momentum=0.5)
    iterator = iter(coordinator.create_per_worker_dataset(dataset_fn))

    @tf.function
    def step(iterator):
        x, y = next(iterator)
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean((model(x) - y) ** 2)
        grads = tape.gradient(loss, model.trainable_variables)
        optimizer.apply_gradients(zip(grads, model.trainable_variables))
        return loss

    for _ in range(300):
        coordinator.schedule(step, args=(iterator,))
    coordinator.join()
    assert int(optimizer.iterations.numpy()) == 300  # every update counted once, atomically
    assert len(optimizer.variables) == 4  # iteration, learning_rate, two momentum slots (made by the trace)
    assert all(v.device.startswith("/job:ps/") for v in optimizer.variables)
    x, y = regression_data()
    solution, *_ = np.linalg.lstsq(np.hstack([x, np.ones((256, 1), "float32")]), y, rcond=None)
    np.testing.assert_allclose(model.get_weights()[0], solution[:3], atol=0.03)


def test_schedule_returns_remote_values(strategy, coordinator):
    with strategy.scope():
        total = tf.Variable(0.0)

    @tf.function
    def add(x, scale, extra=None):
        total.assign_add(tf.reduce_sum(x) * scale)
        return {"sum": tf.reduce_sum(x), "pair": (x * scale, None)}

    values = [coordinator.schedule(add, args=(tf.constant([1.0, 2.0]), 2.0)) for _ in range(4)]
    values.append(coordinator.schedule(add, args=(np.array([1.0, 2.0], "float32"),), kwargs={"scale": 3.0}))
    assert isinstance(values[0], tf.distribute.experimental.coordinator.RemoteValue)
    coordinator.join()
    result = values[0].fetch()
    assert result["sum"] == 3.0 and isinstance(result["sum"], np.float32)  # TF: Tensor.numpy() of a scalar
    np.testing.assert_array_equal(result["pair"][0], [2.0, 4.0])
    assert result["pair"][1] is None
    got = values[4].get()
    assert isinstance(got["sum"], tf.Tensor)
    np.testing.assert_array_equal(got["pair"][0].numpy(), [3.0, 6.0])
    fetched = coordinator.fetch({"a": values[1], "b": [values[2]], "c": 7})
    assert fetched["a"]["sum"] == 3.0 and fetched["b"][0]["sum"] == 3.0 and fetched["c"] == 7
    assert float(total) == 4 * 6.0 + 9.0


def test_function_error_surfaces_from_join_with_worker_traceback(strategy, coordinator):
    iterator = iter(coordinator.create_per_worker_dataset(short_dataset_fn))

    @tf.function
    def take(iterator):
        return next(iterator) * 2.0

    values = [coordinator.schedule(take, args=(iterator,)) for _ in range(10)]  # 2 workers x 3 elements
    traceback = r"(?s)End of sequence.*worker's traceback.*Traceback"
    with pytest.raises(tf.errors.OutOfRangeError, match=traceback):
        coordinator.join()
    failed = [v for v in values if v._done.is_set() and v._error is not None]
    assert failed
    with pytest.raises((tf.errors.OutOfRangeError, tf.errors.CancelledError)):
        failed[0].fetch()
    for _ in range(3):  # the other worker's function, still running at the error, may fail too
        try:
            coordinator.join()
            break
        except (tf.errors.OutOfRangeError, tf.errors.CancelledError):
            pass
    assert coordinator.done()  # each error is raised once; the coordinator goes on
    ok = coordinator.schedule(tf.function(lambda: tf.constant(1.0)))
    assert ok.fetch() == 1.0


def test_misuse_errors(strategy, coordinator, cluster):
    with pytest.raises(TypeError, match="only accepts a `tf.function` or a concrete function"):
        coordinator.schedule(lambda: 1.0)
    local = tf.Variable(1.0)  # not created in the strategy's scope

    @tf.function
    def uses_local():
        local.assign_add(1.0)
        return local.read_value()

    with pytest.raises(ValueError, match="not created under this ParameterServerStrategy's scope"):
        coordinator.schedule(uses_local)
    value = coordinator.schedule(tf.function(lambda: tf.constant(2.0)))
    with pytest.raises(ValueError, match="does not take a RemoteValue"):
        coordinator.schedule(tf.function(lambda v: v), args=(value,))
    iterator = iter(coordinator.create_per_worker_dataset(dataset_fn))
    with pytest.raises(TypeError, match="only inside a function run by coordinator.schedule"):
        next(iterator)
    with pytest.raises(ValueError, match="needs a tf.distribute.experimental.ParameterServerStrategy"):
        tf.distribute.experimental.coordinator.ClusterCoordinator(tf.distribute.MirroredStrategy())
    assert tf.distribute.experimental.coordinator.ClusterCoordinator(strategy) is coordinator
    spec = cluster.cluster_resolver.cluster_spec().as_dict()
    no_ps = tf.distribute.cluster_resolver.TFConfigClusterResolver(tf_config={
        "cluster": {"chief": spec["chief"], "worker": spec["worker"]}, "task": {"type": "chief", "index": 0}})
    with pytest.raises(ValueError, match="at least one 'ps' task"):
        tf.distribute.experimental.ParameterServerStrategy(no_ps)
    with pytest.raises(ValueError, match="also names 'ps' tasks"):
        tf.distribute.MultiWorkerMirroredStrategy(cluster.cluster_resolver)
    with pytest.raises(ValueError, match="positive integer"):
        tf.distribute.experimental.create_local_cluster(num_workers=0)
    coordinator.join()


def test_killed_worker_is_reported_and_its_functions_rescheduled():
    with tf.distribute.experimental.create_local_cluster(num_workers=2, num_ps=1) as local:
        strategy = tf.distribute.experimental.ParameterServerStrategy(local.cluster_resolver)
        coordinator = tf.distribute.experimental.coordinator.ClusterCoordinator(strategy)
        with strategy.scope():
            w = tf.Variable(tf.zeros([3, 1]))
            b = tf.Variable(0.0)
        iterator = iter(coordinator.create_per_worker_dataset(slow_dataset_fn))
        step = sgd_step(strategy, w, b)
        values = [coordinator.schedule(step, args=(iterator,)) for _ in range(80)]
        deadline = time.monotonic() + 60
        while sum(v._done.is_set() for v in values) < 6 and time.monotonic() < deadline:
            time.sleep(0.05)
        assert sum(v._done.is_set() for v in values) < 80  # killed mid-training
        victim = local.worker_pids[0]
        os.kill(victim, signal.SIGKILL)
        coordinator.join()  # TF's behaviour: the lost worker's closure runs on the other worker
        assert all(np.isfinite(v.fetch()) for v in values)
        assert len(coordinator.worker_failures) == 1 and "worker 0" in coordinator.worker_failures[0]
        assert len(coordinator.staleness) >= 80  # a closure cut off mid-way may have updated twice
        x, y = regression_data()
        solution, *_ = np.linalg.lstsq(np.hstack([x, np.ones((256, 1), "float32")]), y, rcond=None)
        np.testing.assert_allclose(w.numpy(), solution[:3], atol=0.05)
        os.kill(local.worker_pids[1], signal.SIGKILL)  # no worker left
        late = coordinator.schedule(step, args=(iterator,))
        with pytest.raises(tf.errors.UnavailableError, match="Every worker is unavailable"):
            coordinator.join()
        with pytest.raises(tf.errors.UnavailableError):
            late.fetch()
        with pytest.raises(tf.errors.UnavailableError, match="No worker is left"):
            coordinator.schedule(step, args=(iterator,))
        pids = local.ps_pids + local.worker_pids
    for pid in pids:
        assert not _running(pid)
    assert json.dumps(coordinator.worker_failures)
    with pytest.raises(tf.errors.UnavailableError, match="its local cluster was shut down"):
        tf.distribute.experimental.ParameterServerStrategy(local.cluster_resolver)


LAUNCHED = """
import json, numpy as np, companion as tf
resolver = tf.distribute.cluster_resolver.TFConfigClusterResolver()
if resolver.task_type in ("ps", "worker"):
    tf.distribute.Server(resolver.cluster_spec(), job_name=resolver.task_type, task_index=resolver.task_id,
                         start=True).join()
strategy = tf.distribute.experimental.ParameterServerStrategy(resolver)
coordinator = tf.distribute.experimental.coordinator.ClusterCoordinator(strategy)
with strategy.scope():
    w = tf.Variable(tf.zeros([3, 1]))
    count = tf.Variable(0)

def dataset_fn():
    x = np.random.default_rng(0).normal(size=(64, 3)).astype("float32")
    y = x @ np.array([[1.], [-2.], [3.]], "float32")
    return tf.data.Dataset.from_tensor_slices((x, y)).repeat().batch(16)

iterator = iter(coordinator.create_per_worker_dataset(dataset_fn))

@tf.function
def step(iterator):
    x, y = next(iterator)
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean((x @ w - y) ** 2)
    w.assign_sub(0.05 * tape.gradient(loss, w))
    count.assign_add(1)
    return loss

for _ in range(200):
    coordinator.schedule(step, args=(iterator,))
coordinator.join()
print("RESULT " + json.dumps({"w": w.numpy().ravel().tolist(), "count": int(count.numpy()),
                              "devices": [w.device, count.device], "task": resolver.task_type}))
"""


def test_companion_launch_runs_a_parameter_server_cluster(tmp_path):
    script = tmp_path / "train.py"
    script.write_text(LAUNCHED)
    command = [sys.executable, "-m", "companion.distribute._launch", "--ps", "2", "--workers", "2",
               str(script)]
    done = subprocess.run(command, capture_output=True, text=True, timeout=240)
    assert done.returncode == 0, done.stdout + done.stderr
    lines = done.stdout.splitlines()
    result = json.loads(next(line for line in lines if "RESULT" in line).split("RESULT ", 1)[1])
    assert next(line for line in lines if "RESULT" in line).startswith("[chief 0] ")
    assert result["task"] == "chief" and result["count"] == 200
    assert result["devices"] == [f"/job:ps/replica:0/task:{i}/device:CPU:0" for i in (0, 1)]
    # asynchronous: how stale each worker's gradients are depends on scheduling (under CI load one run
    # stopped 0.015 from the target after the 200 steps); a wrong update would not come near it
    np.testing.assert_allclose(result["w"], [1.0, -2.0, 3.0], atol=0.1)
    assert "[launch] the chief finished; stopped the worker and ps tasks" in lines
    assert any(line.startswith("[ps 1] Started server with target: grpc://localhost:") for line in lines)
    assert str(script) not in subprocess.run(["ps", "-eo", "args"], capture_output=True, text=True).stdout


def test_partitioners_count_shards_as_tf():
    partitioners = tf.distribute.experimental.partitioners
    shape, vector = tf.TensorShape([10, 3]), tf.TensorShape([3])
    # TF 2.21: [2, 1] [2]; [5, 1] [3]; [2, 1] [1]; [1, 1] [1]; [4, 1] [1]; [2, 1] [1]
    cases = [(partitioners.FixedShardsPartitioner(2), [2, 1], [2]),
             (partitioners.FixedShardsPartitioner(5), [5, 1], [3]),
             (partitioners.MinSizePartitioner(min_shard_bytes=96, max_shards=4), [2, 1], [1]),
             (partitioners.MinSizePartitioner(), [1, 1], [1]),
             (partitioners.MaxSizePartitioner(max_shard_bytes=36), [4, 1], [1]),
             (partitioners.MaxSizePartitioner(max_shard_bytes=36, max_shards=2), [2, 1], [1])]
    for partitioner, matrix, flat in cases:
        assert partitioner(shape, tf.float32) == matrix and partitioner(vector, tf.float32) == flat
    with pytest.raises(ValueError, match="num_shards must be a positive integer"):
        partitioners.FixedShardsPartitioner(0)


def test_sharded_variables_train_in_scheduled_functions(cluster):
    partitioner = tf.distribute.experimental.partitioners.FixedShardsPartitioner(2)
    sharded = tf.distribute.experimental.ParameterServerStrategy(cluster.cluster_resolver, partitioner)
    coordinator = tf.distribute.experimental.coordinator.ClusterCoordinator(sharded)
    with sharded.scope():
        w = tf.Variable(tf.zeros([3, 1]))  # rows [0, 1] on one ps task, row [2] on the other
        b = tf.Variable(0.0)  # a scalar is never sharded
    shards = w.variables
    assert [s.shape.as_list() for s in shards] == [[2, 1], [1, 1]]
    assert {s.device for s in shards} == {f"/job:ps/replica:0/task:{i}/device:CPU:0" for i in (0, 1)}
    assert len(b.variables) == 1
    iterator = iter(coordinator.create_per_worker_dataset(dataset_fn))
    step = sgd_step(sharded, w, b)
    for _ in range(120):
        coordinator.schedule(step, args=(iterator,))
    coordinator.join()
    x, y = regression_data()
    solution, *_ = np.linalg.lstsq(np.hstack([x, np.ones((256, 1), "float32")]), y, rcond=None)
    np.testing.assert_allclose(w.numpy(), solution[:3], atol=2e-2)
    np.testing.assert_allclose(np.concatenate([s.numpy() for s in shards]), w.numpy())


NO_NETWORK = """
import time, numpy as np, companion as tf
resolver = tf.distribute.cluster_resolver.TFConfigClusterResolver(tf_config={
    "cluster": {"chief": ["localhost:5000"], "worker": ["localhost:5001"], "ps": ["localhost:5002"]},
    "task": {"type": "chief", "index": 0}})
start = time.monotonic()
try:
    tf.distribute.experimental.ParameterServerStrategy(resolver)
except tf.errors.UnavailableError as error:
    print("FAST", time.monotonic() - start < 10, "Network is unreachable" in str(error))
with tf.distribute.experimental.create_local_cluster(num_workers=2, num_ps=1) as cluster:
    strategy = tf.distribute.experimental.ParameterServerStrategy(cluster.cluster_resolver)
    coordinator = tf.distribute.experimental.coordinator.ClusterCoordinator(strategy)
    with strategy.scope():
        v = tf.Variable(0.0)
    add = tf.function(lambda: v.assign_add(1.0))
    for _ in range(10):
        coordinator.schedule(add)
    coordinator.join()
    print("TOTAL", float(v))
"""


def test_a_local_cluster_needs_no_network(tmp_path):
    """The grader runs notebooks in a network namespace whose loopback is down: the local cluster
    talks over Unix sockets, and an unreachable TCP address fails at once."""
    if not shutil.which("unshare") or subprocess.run(["unshare", "--net", "true"],
                                                      capture_output=True).returncode != 0:
        pytest.skip("needs `unshare --net` (root or user namespaces)")
    script = tmp_path / "no_network.py"
    script.write_text(NO_NETWORK)
    done = subprocess.run(["unshare", "--net", sys.executable, str(script)], capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "FAST True True" in done.stdout and "TOTAL 10.0" in done.stdout
    assert done.stderr.strip() == "" or "Started server" not in done.stderr  # task output goes to logs


def test_a_lost_ps_task_ends_training_with_unavailable_error():
    with tf.distribute.experimental.create_local_cluster(num_workers=2, num_ps=1) as local:
        strategy = tf.distribute.experimental.ParameterServerStrategy(local.cluster_resolver)
        coordinator = tf.distribute.experimental.coordinator.ClusterCoordinator(strategy)
        with strategy.scope():
            v = tf.Variable(0.0)
        add = tf.function(lambda: v.assign_add(1.0))
        coordinator.schedule(add)
        coordinator.join()
        os.kill(local.ps_pids[0], signal.SIGKILL)
        for _ in range(4):
            coordinator.schedule(add)
        with pytest.raises(tf.errors.UnavailableError, match="ps task 0 at localhost:.* is unavailable"):
            coordinator.join()
        with pytest.raises(tf.errors.UnavailableError, match="ps task 0"):
            v.numpy()
        assert coordinator.worker_failures == []  # the workers are fine; the variables are gone
        pids = local.ps_pids + local.worker_pids
    for pid in pids:
        assert not _running(pid)


def context_dataset_fn(input_context):
    # TF 2.21 (ParameterServerStrategy): each worker is input pipeline 0 of 1, with 1 replica
    values = [input_context.num_input_pipelines, input_context.input_pipeline_id,
              input_context.get_per_replica_batch_size(8)]
    return tf.data.Dataset.from_tensors(tf.constant(values, tf.float32)).repeat()


def test_tf_tutorial_dataset_pattern_and_metrics(strategy, coordinator):
    with strategy.scope():
        mean = tf.keras.metrics.Mean()

    @tf.function
    def per_worker_dataset_fn():  # TF's tutorial: the strategy is used inside the shipped function
        return strategy.distribute_datasets_from_function(context_dataset_fn)

    iterator = iter(coordinator.create_per_worker_dataset(per_worker_dataset_fn))

    @tf.function
    def step(iterator):
        element = next(iterator)
        mean.update_state(element[2])
        return element

    values = [coordinator.schedule(step, args=(iterator,)) for _ in range(6)]
    coordinator.join()
    np.testing.assert_array_equal(values[-1].fetch(), [1.0, 0.0, 8.0])
    assert float(mean.result()) == 8.0 and float(mean.count) == 6.0
    mean.reset_state()  # on the coordinator: written to the ps task
    assert float(mean.count) == 0.0


ORPHANED = """
import companion as tf
cluster = tf.distribute.experimental.create_local_cluster(num_workers=1, num_ps=1)
print(cluster.socket_dir, *cluster.ps_pids, *cluster.worker_pids, flush=True)
import time
time.sleep(600)
"""


def test_tasks_exit_when_the_chief_is_killed(tmp_path):
    script = tmp_path / "chief.py"
    script.write_text(ORPHANED)
    chief = subprocess.Popen([sys.executable, str(script)], stdout=subprocess.PIPE, text=True)
    try:
        sockets, *pids = chief.stdout.readline().split()
        pids = [int(pid) for pid in pids]
        assert len(pids) == 2 and all(_running(pid) for pid in pids) and os.path.isdir(sockets)
    finally:
        chief.kill()  # SIGKILL: no atexit, no shutdown()
        chief.wait()
    deadline = time.monotonic() + 30
    while any(_running(pid) for pid in pids) and time.monotonic() < deadline:
        time.sleep(0.2)
    assert not any(_running(pid) for pid in pids)  # each task noticed its parent was gone
    assert not os.path.exists(sockets)  # and removed the cluster's socket folder


LAUNCHED_WITH_A_DYING_WORKER = """
import json, os, signal, time, numpy as np, companion as tf
resolver = tf.distribute.cluster_resolver.TFConfigClusterResolver()
if resolver.task_type in ("ps", "worker"):
    tf.distribute.Server(resolver.cluster_spec(), job_name=resolver.task_type, task_index=resolver.task_id,
                         start=True).join()
strategy = tf.distribute.experimental.ParameterServerStrategy(resolver)
coordinator = tf.distribute.experimental.coordinator.ClusterCoordinator(strategy)
with strategy.scope():
    count = tf.Variable(0)

MARKER = os.path.join(os.path.dirname(os.path.abspath(__file__)), "worker-0-died")

def dataset_fn():
    def elements():
        task = json.loads(os.environ["TF_CONFIG"])["task"]
        for i in range(10**6):
            if task["type"] == "worker" and task["index"] == 0 and i == 2:
                open(MARKER, "w").close()
                os.kill(os.getpid(), signal.SIGKILL)  # worker 0 dies mid-training
            while task["type"] == "worker" and task["index"] == 1 and i == 3 and not os.path.exists(MARKER):
                time.sleep(0.01)  # (worker 1 waits for it, so a loaded machine cannot let it do all 40)
            yield i
    return tf.data.Dataset.from_generator(elements, output_signature=tf.TensorSpec([], tf.int64))

iterator = iter(coordinator.create_per_worker_dataset(dataset_fn))

@tf.function
def step(iterator):
    next(iterator)
    count.assign_add(1)

for _ in range(40):
    coordinator.schedule(step, args=(iterator,))
coordinator.join()
print("RESULT " + json.dumps({"count": int(count.numpy()), "failures": coordinator.worker_failures}))
"""


def test_companion_launch_keeps_the_cluster_when_a_worker_dies(tmp_path):
    script = tmp_path / "train.py"
    script.write_text(LAUNCHED_WITH_A_DYING_WORKER)
    command = [sys.executable, "-m", "companion.distribute._launch", "--ps", "1", "--workers", "2",
               str(script)]
    done = subprocess.run(command, capture_output=True, text=True, timeout=240)
    assert done.returncode == 0, done.stdout + done.stderr
    lines = done.stdout.splitlines()
    result = json.loads(next(line for line in lines if "RESULT" in line).split("RESULT ", 1)[1])
    assert result["count"] == 40  # it died before its update, which then ran on worker 1
    assert len(result["failures"]) == 1 and "worker 0" in result["failures"][0]
    assert ("[launch] worker 0 was killed by signal SIGKILL; the chief's coordinator runs its functions on "
            "the other workers") in lines
    assert "[launch] the chief finished; stopped the worker and ps tasks" in lines


def test_random_ops_in_scheduled_functions_draw_fresh_reproducible_numbers(strategy, coordinator):
    with strategy.scope():
        scale = tf.Variable(1.0)
        generator = tf.random.Generator.from_seed(3)  # its key stays on the chief, as the op streams do

    @tf.function
    def draw():
        return tf.random.uniform([3]) * scale, generator.normal([2])

    def four_draws():
        tf.random.set_seed(5)
        generator.reset_from_seed(3)
        values = [coordinator.schedule(draw) for _ in range(4)]
        return [np.concatenate(v.fetch()) for v in values]

    first, second = four_draws(), four_draws()
    assert len({tuple(v) for v in first}) == 4  # every call drew other numbers
    np.testing.assert_array_equal(first, second)  # keys split on the chief at schedule time
    assert not generator.state.device.startswith("/job:ps")


def test_checkpoint_saves_and_restores_ps_variables(strategy, coordinator, tmp_path):
    with strategy.scope():
        model = tf.keras.Sequential([tf.keras.Input(shape=(3,)), tf.keras.layers.Dense(2)])
        optimizer = tf.keras.optimizers.Adam(0.1)

    @tf.function
    def step():
        with tf.GradientTape() as tape:
            loss = tf.reduce_sum(model(tf.ones([4, 3])) ** 2)
        weights = model.trainable_variables
        optimizer.apply_gradients(zip(tape.gradient(loss, weights), weights))

    for _ in range(3):
        coordinator.schedule(step)
    coordinator.join()
    saved = model.get_weights()
    checkpoint = tf.train.Checkpoint(model=model, optimizer=optimizer)
    path = checkpoint.save(str(tmp_path / "ckpt"))
    for _ in range(3):
        coordinator.schedule(step)
    coordinator.join()
    assert int(optimizer.iterations.numpy()) == 6
    checkpoint.restore(path)  # the chief writes the saved values to the ps tasks
    for restored, expected in zip(model.get_weights(), saved):
        np.testing.assert_array_equal(restored, expected)
    assert int(optimizer.iterations.numpy()) == 3
