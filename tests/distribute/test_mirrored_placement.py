"""MirroredVariables stay replicated on every write, so compiled steps are compiled once per shape.

Issue 21: ``fit`` under ``MirroredStrategy`` compiled its step again in the second epoch
(a metric reset gave its Variables a single-device value) and, within the first epoch,
again after the first step (XLA returned a Conv2D kernel split over the replica axis).
The oracle here is the count of XLA compilations (JAX's monitoring events) after the first
epoch, which must be zero when every batch has the same shape, and the sharding of each
Variable, which must stay the strategy's replicated sharding.
"""

import contextlib

import jax
import numpy as np
import pytest

import companion as tf
from tests.distribute.replicas import run_with_devices

_COMPILE_EVENT = "/jax/core/compile/backend_compile_duration"


@contextlib.contextmanager
def counting_compiles():
    """Counts XLA backend compilations inside the block (``counts[0]``)."""
    counts = [0]

    def listener(event, duration, **kwargs):
        if event == _COMPILE_EVENT:
            counts[0] += 1

    jax.monitoring.register_event_duration_secs_listener(listener)
    try:
        yield counts
    finally:
        jax.monitoring.unregister_event_duration_listener(listener)


def _conv_model():
    return tf.keras.Sequential([
        tf.keras.layers.Conv2D(4, 3, activation="relu", input_shape=(8, 8, 1)),
        tf.keras.layers.MaxPooling2D(), tf.keras.layers.Flatten(), tf.keras.layers.Dense(3)])


def _all_variables(model):
    metrics = [v for m in model.metrics for v in m.variables]
    return model.variables + model.optimizer.variables + metrics


def test_fit_in_a_mirrored_scope_compiles_nothing_after_the_first_epoch():
    rng = np.random.default_rng(0)
    x, y = rng.normal(size=(64, 8, 8, 1)).astype("float32"), rng.integers(0, 3, 64)
    dataset = tf.data.Dataset.from_tensor_slices((x, y)).batch(16)  # 4 batches of one shape
    strategy = tf.distribute.MirroredStrategy()
    with strategy.scope():
        model = _conv_model()
        model.compile(loss=tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True),
                      optimizer=tf.keras.optimizers.Adam(), metrics=["accuracy"])
    model.fit(dataset, epochs=1, verbose=0)
    with counting_compiles() as compiles:
        history = model.fit(dataset, epochs=2, verbose=0)
    assert compiles[0] == 0
    assert history.history["loss"][1] < history.history["loss"][0]
    for variable in _all_variables(model):
        assert variable._v.sharding == strategy._replicated, variable.name


def test_an_eager_assignment_keeps_a_mirrored_variable_replicated():
    strategy = tf.distribute.MirroredStrategy()
    with strategy.scope():
        v = tf.Variable(np.zeros(3, "float32"))
        metric = tf.keras.metrics.Mean()
    metric.update_state([1.0, 3.0])
    metric.reset_state()  # assigns fresh zeros made on the default device
    v.assign(np.arange(3.0, dtype="float32"))
    assert v._v.sharding == strategy._replicated
    assert all(w._v.sharding == strategy._replicated for w in metric.variables)
    np.testing.assert_array_equal(v.numpy(), [0.0, 1.0, 2.0])
    assert float(metric.result()) == 0.0


def test_a_function_returns_written_mirrored_variables_replicated():
    strategy = tf.distribute.MirroredStrategy()
    with strategy.scope():
        kernel = tf.Variable(np.ones((3, 3, 1, 2), "float32"))  # first axis 3: XLA may split it

    @tf.function
    def step(images):
        with tf.GradientTape() as tape:
            loss = tf.reduce_sum(tf.nn.conv2d(images, kernel, 1, "VALID") ** 2)
        kernel.assign_sub(0.01 * tape.gradient(loss, kernel))
        return loss

    images = tf.Tensor(jax.device_put(np.ones((4, 5, 5, 1), "float32"), strategy._split))  # a split batch
    with counting_compiles() as compiles:
        step(images)
        first = compiles[0]
        step(images)
        step(images)
    assert first >= 1 and compiles[0] == first
    assert step.experimental_get_tracing_count() == 1
    assert kernel._v.sharding == strategy._replicated


FOUR_DEVICES = """
import contextlib, jax
counts = [0]
jax.monitoring.register_event_duration_secs_listener(
    lambda event, duration, **kw: counts.__setitem__(0, counts[0] + (event == "%s")))
rng = np.random.default_rng(0)
x, y = rng.normal(size=(64, 8, 8, 1)).astype("float32"), rng.integers(0, 4, 64)
strategy = tf.distribute.MirroredStrategy()
GLOBAL = 16
dataset = tf.data.Dataset.from_tensor_slices((x, y)).batch(GLOBAL)
with strategy.scope():
    model = tf.keras.Sequential([tf.keras.layers.Conv2D(4, 4, activation="relu", input_shape=(8, 8, 1)),
                                 tf.keras.layers.Flatten(), tf.keras.layers.Dense(4)])
    model.compile(loss=tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True),
                  optimizer=tf.keras.optimizers.Adam(), metrics=["accuracy"])
model.fit(dataset, epochs=1, verbose=0)
before = counts[0]
model.fit(dataset, epochs=2, verbose=0)
fit_compiles = counts[0] - before

with strategy.scope():
    loss_object = tf.keras.losses.SparseCategoricalCrossentropy(
        from_logits=True, reduction=tf.keras.losses.Reduction.NONE)
    accuracy = tf.keras.metrics.SparseCategoricalAccuracy()
    optimizer = tf.keras.optimizers.Adam()

def train_step(inputs):
    images, labels = inputs
    with tf.GradientTape() as tape:
        predictions = model(images, training=True)
        loss = tf.nn.compute_average_loss(loss_object(labels, predictions), global_batch_size=GLOBAL)
    gradients = tape.gradient(loss, model.trainable_variables)
    optimizer.apply_gradients(zip(gradients, model.trainable_variables))
    accuracy.update_state(labels, predictions)
    return loss

@tf.function
def distributed_train_step(batch):
    return strategy.reduce(tf.distribute.ReduceOp.SUM, strategy.run(train_step, args=(batch,)), axis=None)

loop_compiles = []
for epoch in range(3):
    before = counts[0]
    for batch in strategy.experimental_distribute_dataset(dataset):
        distributed_train_step(batch)
    accuracy.reset_states()
    loop_compiles.append(counts[0] - before)
variables = model.variables + model.optimizer.variables + optimizer.variables + accuracy.variables
emit(fit_compiles=fit_compiles, loop_compiles=loop_compiles,
     replicated=[v._v.sharding == strategy._replicated for v in variables],
     traces=distributed_train_step.experimental_get_tracing_count())
""" % _COMPILE_EVENT


@pytest.mark.slow
def test_four_replicas_compile_fit_and_a_custom_loop_once():
    out = run_with_devices(FOUR_DEVICES)
    assert out["fit_compiles"] == 0
    assert out["loop_compiles"][0] >= 1 and out["loop_compiles"][1:] == [0, 0]
    # the first step creates the optimizer's slots, so TF's rule traces it twice, then never again
    assert all(out["replicated"]) and out["traces"] == 2
