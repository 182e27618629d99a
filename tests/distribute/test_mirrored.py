"""MirroredStrategy on 4 forced CPU devices, each case in a fresh process, against one device."""

import numpy as np
import pytest

import companion as tf
from tests.distribute.replicas import run_with_devices

pytestmark = pytest.mark.slow

CUSTOM_LOOP = """
GLOBAL = 16
rng = np.random.default_rng(0)
x = rng.normal(size=(42, 3)).astype("float32")  # batches of 16, 16 and 10 (uneven on 4)
y = rng.integers(0, 3, 42)

def make():
    return tf.keras.Sequential([tf.keras.Input(shape=(3,)), tf.keras.layers.Dense(8, activation="relu"),
                                tf.keras.layers.Dense(3)])

init = make().get_weights()

def train(strategy, steps_per_call):
    with strategy.scope():
        model = make()
        model.set_weights(init)
        optimizer = tf.keras.optimizers.Adam(0.01)
        loss_fn = tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True, reduction="none")
        accuracy = tf.keras.metrics.SparseCategoricalAccuracy()
    dist = strategy.experimental_distribute_dataset(tf.data.Dataset.from_tensor_slices((x, y)).batch(GLOBAL))

    def step(inputs):
        xb, yb = inputs
        with tf.GradientTape() as tape:
            logits = model(xb, training=True)
            loss = tf.nn.compute_average_loss(loss_fn(yb, logits), global_batch_size=GLOBAL)
        grads = tape.gradient(loss, model.trainable_variables)
        optimizer.apply_gradients(zip(grads, model.trainable_variables))
        accuracy.update_state(yb, logits)
        return loss

    @tf.function
    def distributed_step(inputs):
        per_replica = strategy.run(step, args=(inputs,))
        return strategy.reduce(tf.distribute.ReduceOp.SUM, per_replica, axis=None)

    losses = []
    for _ in range(2):
        losses += [float(distributed_step(batch)) for batch in dist]
    return losses, model.get_weights(), float(accuracy.result()), int(optimizer.iterations)

mirrored = tf.distribute.MirroredStrategy()
one, four = train(tf.distribute.OneDeviceStrategy("/cpu:0"), 1), train(mirrored, 1)
central = train(tf.distribute.experimental.CentralStorageStrategy(), 1)
with mirrored.scope():
    v = tf.Variable(1.0)
emit(replicas=mirrored.num_replicas_in_sync, one=one[0], four=four[0],
     weights=max(float(np.abs(a - b).max()) for a, b in zip(one[1], four[1])),
     acc=[one[2], four[2]], iterations=[one[3], four[3]], variable=type(v).__name__, repr=repr(v),
     central=central[0], str=str(v), per_replica=str(mirrored.run(lambda: tf.constant(1.0))))
"""


def test_custom_loop_matches_one_device_training_including_an_uneven_batch():
    out = run_with_devices(CUSTOM_LOOP)
    assert out["replicas"] == 4
    np.testing.assert_allclose(out["four"], out["one"], rtol=1e-5, atol=1e-6)
    assert out["weights"] <= 1e-5
    np.testing.assert_allclose(out["central"], out["one"], rtol=1e-5, atol=1e-6)
    assert out["acc"][0] == pytest.approx(out["acc"][1]) and out["iterations"] == [6, 6]
    assert out["variable"] == "MirroredVariable" and out["repr"].startswith("MirroredVariable:{\n  0: ")
    assert out["repr"].count("<companion.Variable") == 4
    # TF 2.21: replica i's copy is named 'Variable/replica_i:0'; print() shows them all, and a
    # PerReplica's values as str() writes them
    assert "'Variable/replica_3:0'" in out["repr"] and out["str"] == out["repr"]
    assert out["per_replica"].startswith("PerReplica:{\n  0: companion.Tensor(1.0, shape=(), dtype=float32),")


METRIC_IN_A_REPLICA = """
strategy = tf.distribute.MirroredStrategy()
with strategy.scope():
    mean = tf.keras.metrics.Mean()
    total = tf.keras.metrics.Sum()

def step(batch):
    mean.update_state(batch)
    total(batch)  # __call__: update_state, then result
    return mean.result(), total.result()

def run(values):
    mean.reset_state(); total.reset_state()
    per_replica = strategy.run(step, args=(next(iter(strategy.experimental_distribute_dataset(
        tf.data.Dataset.from_tensor_slices(values).batch(len(values))))),))
    return ([float(v) for v in strategy.experimental_local_results(per_replica[0])],
            [float(v) for v in strategy.experimental_local_results(per_replica[1])],
            [float(mean.result()), float(total.result())])

even = run(np.arange(12, dtype="float32"))
uneven = run(np.arange(10, dtype="float32"))  # 10 rows over 4 replicas: one share is padded
emit(means=even[0], sums=even[1], after=even[2], uneven_after=uneven[2])
"""


def test_a_metric_read_inside_a_replica_is_the_replicas_own_and_the_states_add_up_after_run():
    out = run_with_devices(METRIC_IN_A_REPLICA)
    # TF 2.21 (4 logical CPUs, the same program): [1, 4, 7, 10], [3, 12, 21, 30], then 5.5 and 66
    assert out["means"] == [1.0, 4.0, 7.0, 10.0] and out["sums"] == [3.0, 12.0, 21.0, 30.0]
    assert out["after"] == [5.5, 66.0]  # every replica's change, summed once when run returns
    assert out["uneven_after"] == [4.5, 45.0]  # padding counts for nothing


REDUCE = """
strategy = tf.distribute.MirroredStrategy()
def values():
    ctx = tf.distribute.get_replica_context()
    rid = tf.cast(ctx.replica_id_in_sync_group, "float32")
    return tf.stack([rid, rid * 10.0]), ctx.all_reduce("SUM", rid), ctx.all_reduce("MEAN", rid)
per_replica, summed, mean = strategy.run(values)
try:  # TF 2.21: InvalidArgumentError "ConcatOp : Can't concatenate scalars (use tf.stack instead)"
    strategy.gather(summed, axis=0)
    scalar_gather = "returned"
except tf.errors.InvalidArgumentError as error:
    scalar_gather = str(error)
contexts = []
def dataset_fn(context):
    contexts.append([context.num_input_pipelines, context.input_pipeline_id,
                     context.get_per_replica_batch_size(8)])
    return tf.data.Dataset.from_tensor_slices(np.arange(16.0, dtype="float32")).batch(2)
batch = next(iter(strategy.experimental_distribute_dataset(
    tf.data.Dataset.from_tensor_slices(np.arange(20.0, dtype="float32").reshape(10, 2)).batch(10))))
emit(local=[v.numpy() for v in strategy.experimental_local_results(per_replica)],
     sum=strategy.reduce("SUM", per_replica, axis=None).numpy(),
     mean=strategy.reduce("MEAN", per_replica, axis=None).numpy(),
     sum_axis=strategy.reduce("SUM", per_replica, axis=0).numpy(),
     mean_axis=strategy.reduce(tf.distribute.ReduceOp.MEAN, per_replica, axis=0).numpy(),
     all_sum=[v.numpy() for v in summed.values], all_mean=[v.numpy() for v in mean.values],
     gathered=strategy.gather(per_replica, axis=0).numpy(), scalar_gather=scalar_gather,
     shards=[v.numpy() for v in batch.values],
     batch_mean=strategy.reduce("MEAN", batch, axis=0).numpy(),
     batch_sum=strategy.reduce("SUM", batch, axis=0).numpy(),
     cross=tf.distribute.in_cross_replica_context(), has=tf.distribute.has_strategy(),
     average=float(strategy.run(lambda: tf.nn.compute_average_loss(tf.ones([4]))).values[0]),
     scaled=float(strategy.run(lambda: tf.nn.scale_regularization_loss(tf.constant(8.0))).values[0]),
     from_fn=[v.numpy() for v in
              iter(strategy.distribute_datasets_from_function(dataset_fn)).get_next().values],
     contexts=contexts,
     doubled=[v.numpy() for v in strategy.run(lambda v: v * 2.0, args=(per_replica,)).values])
"""


def test_reduce_gather_all_reduce_and_dataset_splitting():
    out = run_with_devices(REDUCE)
    per = np.array([[r, 10.0 * r] for r in range(4)])
    np.testing.assert_allclose(out["local"], per)
    np.testing.assert_allclose(out["sum"], per.sum(0))
    np.testing.assert_allclose(out["mean"], per.mean(0))
    np.testing.assert_allclose(out["sum_axis"], per.sum())
    np.testing.assert_allclose(out["mean_axis"], per.mean())
    assert out["all_sum"] == [6.0] * 4 and out["all_mean"] == [1.5] * 4
    np.testing.assert_allclose(out["gathered"], per.reshape(-1))
    assert "can't concatenate scalars" in out["scalar_gather"]
    rows = np.arange(20.0).reshape(10, 2)  # 10 rows over 4 replicas: padded to 12, 3 each
    assert [len(s) for s in out["shards"]] == [3, 3, 3, 1]
    np.testing.assert_allclose(np.concatenate(out["shards"]), rows)
    np.testing.assert_allclose(out["batch_mean"], rows.mean(0))  # the padding does not count
    np.testing.assert_allclose(out["batch_sum"], rows.sum(0))
    # outside any scope the default replica context is in effect: TF 2.21 gives False, False
    assert out["cross"] is False and out["has"] is False
    assert out["average"] == pytest.approx(4 / 16)  # global batch = 4 per replica x 4 replicas
    assert out["scaled"] == pytest.approx(8.0 / 4)
    assert out["contexts"] == [[1, 0, 2]]
    np.testing.assert_allclose(out["doubled"], 2 * per)  # per-replica results fed back to run
    assert out["from_fn"] == [[0.0, 1.0], [2.0, 3.0], [4.0, 5.0], [6.0, 7.0]]  # one batch per replica


FIT = """
rng = np.random.default_rng(1)
x = rng.normal(size=(42, 6, 6, 1)).astype("float32")
y = rng.integers(0, 3, 42)

def make():
    return tf.keras.Sequential([tf.keras.Input(shape=(6, 6, 1)),
                                tf.keras.layers.Conv2D(2, 3, activation="relu"),
                                tf.keras.layers.Flatten(), tf.keras.layers.Dense(3)])

init = make().get_weights()

def run(strategy):
    with strategy.scope():
        model = make()
        model.set_weights(init)
        model.compile(tf.keras.optimizers.SGD(0.1),
                      tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True), metrics=["accuracy"])
    history = model.fit(x, y, batch_size=16, epochs=2, shuffle=False, verbose=0,
                        validation_data=(x[:10], y[:10]))
    more = model.fit(tf.data.Dataset.from_tensor_slices((x, y)).batch(16), epochs=1, verbose=0)
    return (history.history, more.history, model.get_weights(), model.evaluate(x, y, verbose=0),
            model.predict(x[:5], verbose=0))

from companion.distribute import _run
replica_functions = set()
_made = _run.ReplicaProgram.__init__
def _recording(self, strategy, fn, args, kwargs, *more):
    replica_functions.add(fn.__name__)
    _made(self, strategy, fn, args, kwargs, *more)
_run.ReplicaProgram.__init__ = _recording
strategy = tf.distribute.MirroredStrategy()
one, four = run(tf.distribute.get_strategy()), run(strategy)
split = strategy.split_batch([np.ones((16, 2), "float32")])[0]._array.sharding
emit(one_history=one[0], four_history=four[0], one_more=one[1], four_more=four[1],
     weights=max(float(np.abs(a - b).max()) for a, b in zip(one[2], four[2])),
     evaluate=[one[3], four[3]], predict=float(np.abs(one[4] - four[4]).max()),
     shards=len(split.device_set), spec=str(split.spec),
     programs=sorted(replica_functions))
"""


def test_fit_in_a_scope_equals_fit_without_it():
    out = run_with_devices(FIT)
    for key in out["one_history"]:
        np.testing.assert_allclose(out["four_history"][key], out["one_history"][key], rtol=1e-5)
    np.testing.assert_allclose(out["four_more"]["loss"], out["one_more"]["loss"], rtol=1e-5)
    assert out["weights"] <= 1e-5 and out["predict"] <= 1e-5
    np.testing.assert_allclose(out["evaluate"][1], out["evaluate"][0], rtol=1e-5)
    assert out["shards"] == 4 and "replica" in out["spec"]  # batches are split over the devices
    # fit, evaluate and predict ran their steps through strategy.run (Keras's distributed fit)
    assert out["programs"] == ["predict_step", "test_step", "train_step"]


def test_gather_on_one_replica_returns_its_value_even_a_scalar():
    """TF 2.21, MirroredStrategy on one device: gather(value, axis=0) of a scalar is that scalar."""
    strategy = tf.distribute.MirroredStrategy()
    value = strategy.experimental_distribute_values_from_function(
        lambda ctx: tf.constant(ctx.replica_id_in_sync_group + 7))
    gathered = strategy.gather(value, axis=0)
    assert gathered.shape == () and int(gathered) == 7
