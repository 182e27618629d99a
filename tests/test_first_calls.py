"""First calls: what must never compile an XLA program (issue #21), counted with JAX's monitoring events."""

import contextlib
import threading

import jax
import numpy as np
import pytest
from jax._src import monitoring

import companion as tf
from companion import _compiled_programs
from companion._core import _deferred
from companion._ops import _random

_COUNT = {"on": False, "compiles": 0, "thread": None}


def _on_duration(event, duration, **kwargs):
    # only this test's thread: threads an earlier test left running in this worker (a dataset's
    # prefetch, a coordinator) compile their own programs, which are not this test's business
    if _COUNT["on"] and event.endswith("backend_compile_duration") \
            and threading.get_ident() == _COUNT["thread"]:
        _COUNT["compiles"] += 1


monitoring.register_event_duration_secs_listener(_on_duration)


@contextlib.contextmanager
def counted_compiles():
    """Counts this thread's XLA compilations in the block; the count is ``_COUNT["compiles"]``.

    Eager work an earlier test left pending is run first: it would compile inside the block."""
    _deferred.flush()
    _COUNT.update(on=True, compiles=0, thread=threading.get_ident())
    try:
        yield _COUNT
    finally:
        _COUNT["on"] = False


@contextlib.contextmanager
def no_compiles():
    with counted_compiles():
        yield
    assert _COUNT["compiles"] == 0, f"{_COUNT['compiles']} XLA compilation(s) where none was expected"


def test_constants_of_new_shapes_compile_nothing():
    with no_compiles():
        for n in (1013, 1019):
            t = tf.constant(np.arange(n, dtype=np.float32).reshape(1, n))
            assert t.shape == (1, n)
            np.testing.assert_array_equal(t.numpy()[0], np.arange(n, dtype=np.float32))


def test_constant_does_not_alias_the_numpy_array():
    source = np.ones((64, 64), np.float32)
    t = tf.constant(source)
    source[0, 0] = 5
    assert float(t[0, 0]) == 1.0


@pytest.mark.parametrize("dtype", [np.float32, np.int64])
def test_python_protocols_go_through_host_memory(dtype):
    values = np.arange(997).astype(dtype)  # a shape no other test uses
    xs, ys = tf.constant(values), tf.constant(values * 2)
    with no_compiles():
        rows = list(xs)
        assert len(xs) == 997 and len(rows) == 997
        assert [r.numpy() for r in rows[:3]] == [0, 1, 2] and rows[5].dtype == xs.dtype
        assert float(rows[-1]) == 996
        np.testing.assert_array_equal(np.asarray(ys), values * 2)
        np.testing.assert_array_equal(ys.numpy(), values * 2)
        assert bool(rows[1]) and (dtype is np.float32 or [0, 1, 2][rows[2]] == 2)
        assert f"{rows[3]:.1f}" == "3.0" and "996" in str(xs)
        assert list(zip(xs, ys))[10][1].numpy() == 20  # what plt.scatter(xs, ys) does


def test_iterating_while_a_tape_records_still_records_the_rows():
    x = tf.Variable([1.0, 2.0, 3.0])
    with tf.GradientTape() as tape:
        total = sum(row * row for row in x.value())
    np.testing.assert_allclose(tape.gradient(total, x).numpy(), [2.0, 4.0, 6.0])


def test_dropout_gradient_is_the_scaled_mask():
    x = tf.Variable(np.full((200,), 3.0, np.float32))
    with tf.GradientTape() as tape:
        y = tf.nn.dropout(x, rate=0.25, seed=3)
        total = tf.reduce_sum(y)
    grad = tape.gradient(total, x).numpy()
    kept = y.numpy() != 0
    assert 0 < kept.sum() < 200
    np.testing.assert_allclose(grad, np.where(kept, 1 / 0.75, 0.0), rtol=1e-6)
    np.testing.assert_allclose(y.numpy(), np.where(kept, 3.0 / 0.75, 0.0), rtol=1e-6)


def test_optimizer_slots_are_made_without_compiling():
    opt = tf.keras.optimizers.Adam()
    variables = [tf.Variable(np.ones((211, 7), np.float32)), tf.Variable(np.ones((7,), np.float32))]
    with no_compiles():
        for variable in variables:
            opt._slots_for(variable)
    assert int(opt.iterations) == 0


def test_an_op_run_in_an_initializer_is_not_compiled_again_outside():
    tf.Variable(lambda: tf.random.uniform((37, 3)))  # initializers run in an eager scope
    with no_compiles():
        assert tf.random.uniform((37, 3)).shape == (37, 3)


def test_shuffle_seeds_drawn_on_the_host_compile_nothing():
    _deferred.flush()  # earlier tests' pending eager ops (the stream's state among them) run first
    # JAX's key split would compile again: dropped through companion, whose record of which ops
    # have a kernel of their own must drop with JAX's caches (a bare jax.clear_caches() left it
    # stale, and a later test in this worker counted the op's recompile: 2 compiles where 1 is due)
    _compiled_programs.release()
    with no_compiles():
        assert _random.next_host_key().shape == (2,)
        list(tf.data.Dataset.range(5).shuffle(5))  # its seed comes from the unseeded stream


def test_a_second_fit_epoch_compiles_nothing():
    rng = np.random.default_rng(0)
    x, y = rng.normal(size=(100, 6)).astype(np.float32), rng.integers(0, 3, size=100)
    layers = tf.keras.layers
    model = tf.keras.Sequential([layers.Input(shape=(6,)), layers.Dense(5, activation="relu"),
                                 layers.Dropout(0.2), layers.Dense(3)])
    model.compile(optimizer="adam", loss=tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True),
                  metrics=["accuracy"])
    first = model.fit(x, y, batch_size=32, epochs=1, verbose=0).history["loss"][0]
    with no_compiles():
        second = model.fit(x, y, batch_size=32, epochs=1, verbose=0).history["loss"][0]
    assert np.isfinite(first) and np.isfinite(second)


def test_second_eager_tape_step_compiles_nothing():
    rng = np.random.default_rng(0)
    x = tf.constant(rng.normal(size=(16, 7)).astype(np.float32))  # shapes no other test uses
    y = tf.constant(rng.integers(0, 3, size=16))
    w1, b1 = tf.Variable(rng.normal(size=(7, 5)).astype(np.float32)), tf.Variable(np.zeros(5, np.float32))
    w2 = tf.Variable(rng.normal(size=(5, 3)).astype(np.float32))
    variables = [w1, b1, w2]
    optimizer = tf.keras.optimizers.Adam()

    def step():
        with tf.GradientTape() as tape:
            hidden = tf.nn.dropout(tf.nn.relu(x @ w1 + b1), rate=0.25)
            loss = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(y, hidden @ w2))
        grads = tape.gradient(loss, variables)
        optimizer.apply_gradients(zip(grads, variables))
        for v, g in zip(variables, grads):
            v.assign_sub(0.01 * g)
        return float(loss)

    first = step()
    with no_compiles():
        second = step()
    assert np.isfinite(first) and np.isfinite(second)


def _dense_weights(units, inputs):
    layer = tf.keras.layers.Dense(units, bias_initializer="random_normal")
    layer.build((None, inputs))
    return [w.numpy() for w in layer.weights]


def test_a_layers_initializers_compile_as_one_program_with_the_same_numbers():
    tf.random.set_seed(5)
    with counted_compiles() as count:
        kernel, bias = _dense_weights(13, 29)  # shapes no other test uses
    # key splits, random words and both samplings: one program, not a kernel each
    assert count["compiles"] == 1
    limit = np.sqrt(6 / (29 + 13))  # Glorot uniform
    assert kernel.shape == (29, 13) and np.abs(kernel).max() <= limit and np.abs(kernel).max() > limit / 2
    assert bias.shape == (13,) and 0 < np.abs(bias).max() < 0.3  # random_normal, stddev 0.05
    _deferred.set_enabled(False)
    try:
        tf.random.set_seed(5)
        op_by_op = _dense_weights(13, 29)
    finally:
        _deferred.set_enabled(True)
    np.testing.assert_array_equal(kernel, op_by_op[0])
    np.testing.assert_array_equal(bias, op_by_op[1])


def test_a_layers_initializers_stay_one_program_after_companion_drops_its_programs():
    _deferred.flush()
    # alone in its batch, the key split gets a kernel of its own
    key = _random.split_key(jax.device_put(np.zeros(2, np.uint32)))[1]
    assert key.shape == (2,) and _deferred.resolve(key).dtype == np.uint32
    _compiled_programs.release()  # the kernel goes, and companion's note that it exists with it
    tf.random.set_seed(5)
    with counted_compiles() as count:
        kernel, bias = _dense_weights(11, 23)  # shapes no other test uses
    assert count["compiles"] == 1  # not 2: the key split compiled again on its own, then the rest
    assert kernel.shape == (23, 11) and bias.shape == (11,)


def test_tracing_a_function_over_variables_of_new_shapes_compiles_only_its_program():
    v, w = tf.Variable(np.ones((41, 3), np.float32)), tf.Variable(np.arange(43, dtype=np.int64))

    @tf.function
    def total():
        return tf.reduce_sum(v * 2.0) + tf.cast(tf.reduce_sum(w), tf.float32)

    with counted_compiles() as count:
        assert float(total()) == 41 * 3 * 2.0 + 42 * 43 / 2
    assert count["compiles"] == 1  # no copy program per Variable shape for the trace's stand-ins


def test_a_dataset_loop_in_a_function_compiles_one_program_for_new_batch_shapes():
    @tf.function
    def total(dataset):
        result = tf.constant(0.0, tf.float64)
        for features, labels in dataset:
            result += tf.reduce_sum(features) + tf.cast(tf.reduce_sum(labels), tf.float64)
        return result

    for rows, batch in ((27, 5), (19, 4)):  # shapes no other test uses; the last batch is partial
        features = np.arange(rows * 3, dtype=np.float64).reshape(rows, 3)
        labels = np.arange(rows, dtype=np.int64)
        dataset = tf.data.Dataset.from_tensor_slices((features, labels)).batch(batch)
        with counted_compiles() as count:
            result = total(dataset)
        # the batches are fed to the program by host transfers, not a copy program per batch shape
        assert count["compiles"] == 1
        assert float(result) == features.sum() + labels.sum()
