"""``for element in dataset`` inside a function: one compiled loop, fresh data every call."""

import numpy as np
import pytest

import companion as tf


def test_sums_every_element_including_a_partial_batch():
    x = np.arange(10, dtype=np.float32)
    ds = tf.data.Dataset.from_tensor_slices((x, 2 * x)).batch(3)
    total = tf.Variable(0.0)

    @tf.function
    def run():
        steps = 0
        for a, b in ds:
            total.assign_add(tf.reduce_sum(a + b))
            steps += 1
        return steps

    assert int(run()) == 4 and float(total) == 3 * x.sum()
    assert int(run()) == 4 and float(total) == 6 * x.sum()
    assert run.experimental_get_tracing_count() == 1


def _train_graph_ops(batches):
    data = tf.data.Dataset.from_tensor_slices(np.ones((batches * 8, 4), np.float32)).batch(8)
    w = tf.Variable(np.zeros((4, 1), np.float32))

    @tf.function
    def train():
        loss = 0.0
        for batch in data:
            with tf.GradientTape() as tape:
                loss = tf.reduce_mean((batch @ w - 1.0) ** 2)
            w.assign_sub(0.1 * tape.gradient(loss, w))
        return loss

    train()
    return train.get_concrete_function().graph.operations(), w


def test_the_body_is_compiled_once_whatever_the_number_of_batches():
    few, _ = _train_graph_ops(2)
    many, w = _train_graph_ops(50)
    assert few == many and many.count("scan") == 1  # one loop, body not unrolled
    np.testing.assert_allclose(w.numpy(), np.full((4, 1), 0.25), rtol=1e-5)


def test_a_shuffled_dataset_gives_a_new_order_each_call():
    ds = tf.data.Dataset.range(20).shuffle(20, seed=3)

    @tf.function
    def order():
        out = tf.zeros([20], tf.int64)
        position = 0
        for value in ds:
            out = out + tf.one_hot(position, 20, dtype=tf.int64) * value
            position += 1
        return out

    first, second = order().numpy(), order().numpy()
    assert sorted(first) == list(range(20)) and sorted(second) == list(range(20))
    assert not np.array_equal(first, second)


def test_break_stops_before_the_partial_batch():
    ds = tf.data.Dataset.range(7).batch(2)

    @tf.function
    def first_batches():
        seen = tf.constant(0, tf.int64)
        for batch in ds:
            if seen > 0:
                break
            seen += tf.reduce_sum(batch)
        return seen

    assert int(first_batches()) == 1


def test_a_dataset_that_changes_size_after_tracing_is_reported():
    sizes = {"n": 4}
    source = tf.data.Dataset.from_generator(lambda: iter(range(sizes["n"])),
                                            output_signature=tf.TensorSpec([], tf.int64))

    @tf.function
    def count():
        n = tf.constant(0, tf.int64)
        for _ in source:
            n += 1
        return n

    assert int(count()) == 4
    sizes["n"] = 6
    with pytest.raises(ValueError, match="changed its number or shapes of elements"):
        count()


def test_the_pass_over_a_dataset_while_tracing_runs_as_outside_any_trace():
    # the dataset's own compiled programs then take JAX's fast dispatch (about 10 us a call, against
    # about 200 us under ensure_compile_time_eval, which also keys every program apart)
    from jax._src import config, core

    seen = []

    def numbers():
        for i in range(3):
            seen.append((config.eager_constant_folding.value, core.trace_state_clean()))
            yield np.float32(i)

    ds = tf.data.Dataset.from_generator(numbers, output_signature=tf.TensorSpec([], tf.float32))

    @tf.function
    def total(ds):
        s = tf.constant(0.0)
        for b in ds:
            s += b
        return s

    assert float(total(ds)) == 3.0
    assert len(seen) == 3 and set(seen) == {(False, True)}  # the pass while tracing is the call's


def test_a_dataset_looped_over_again_while_tracing_is_read_once():
    passes = []

    def rows():
        passes.append(1)
        for i in range(5):
            yield np.full((2,), i, np.float32)

    ds = tf.data.Dataset.from_generator(rows, output_signature=tf.TensorSpec((2,), tf.float32)).batch(2)
    holder = []

    @tf.function
    def total():
        if not holder:  # created on the first trace, so the first call traces twice (TF's rule)
            holder.append(tf.Variable(0.0))
        for _ in range(2):  # a Python loop: unrolled, two loops over the dataset in each trace
            for x in ds:
                holder[0].assign_add(tf.reduce_sum(x))
        return holder[0].read_value()

    assert float(total()) == 2 * 2 * sum(range(5))
    assert total.experimental_get_tracing_count() == 2
    # one pass for the four loops of both traces (their layout), which the call's first loop takes,
    # then a fresh one for its second loop: two passes, as TF's call reads (its tracing reads none)
    assert len(passes) == 2
    assert float(total()) == 2 * 2 * 2 * sum(range(5)) and len(passes) == 2 + 2
