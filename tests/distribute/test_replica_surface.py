"""Replica contexts (class names, merge_call), a mirrored Variable's component values, and a
distributed iterator's end of data, on two replicas, against what TF 2.21 prints."""

import pytest

import companion as tf
from tests.distribute.replicas import run_with_devices


def test_two_replicas_surface_matches_tf():
    got = run_with_devices("""
        s = tf.distribute.MirroredStrategy()
        names = []
        def fn():
            names.append(type(tf.distribute.get_replica_context()).__name__)
            return tf.constant(1)
        s.run(fn)
        tf.distribute.OneDeviceStrategy("/cpu:0").run(fn)
        tf.distribute.get_strategy().run(fn)

        def merge_fn(strategy, v, w=0.0):
            return strategy.reduce("SUM", v, axis=None) + w
        def replica():
            ctx = tf.distribute.get_replica_context()
            x = tf.cast(ctx.replica_id_in_sync_group, tf.float32) + 1.0
            return ctx.merge_call(merge_fn, args=(x,), kwargs={"w": 10.0}), x
        merged, own = s.run(replica)
        merged_fn, _ = tf.function(lambda: s.run(replica))()

        with s.scope():
            v = tf.Variable(1.0)
        copies = v.values
        v.assign(4.0)

        it = iter(s.experimental_distribute_dataset(tf.data.Dataset.range(8).batch(4)))
        first = it.get_next_as_optional()
        it.get_next()
        last = it.get_next_as_optional()
        try:
            it.get_next()
            end = None
        except tf.errors.OutOfRangeError as e:
            end = type(e).__name__
        staged = tf.function(lambda it: it.get_next_as_optional().get_value())(
            iter(s.experimental_distribute_dataset(tf.data.Dataset.range(8).batch(4))))
        emit(names=names, merged=[type(merged).__name__, float(merged)], own=[float(x) for x in own.values],
             merged_fn=[type(merged_fn).__name__, float(merged_fn)],
             copies=[repr(c) for c in copies], copy_class=type(copies[0]).__name__,
             first=[bool(first.has_value())] + [x.numpy().tolist() for x in first.get_value().values],
             last=bool(last.has_value()), end=end, staged=[x.numpy().tolist() for x in staged.values])
    """, devices=2)
    assert got["names"] == ["_MirroredReplicaContext", "_OneDeviceReplicaContext", "ReplicaContext"]
    # TF: merge_fn's result is one (mirrored) value, 1 + 2 + 10; the replicas' own values stay per replica
    assert got["merged"] == ["Tensor", 13.0]  # (TF: an EagerTensor; companion names every tensor Tensor)
    assert got["own"] == [1.0, 2.0]
    assert got["merged_fn"] == ["Tensor", 13.0]
    assert got["copies"] == ["<companion.Variable 'Variable:0' shape=() dtype=float32, numpy=4.0>",
                             "<companion.Variable 'Variable/replica_1:0' shape=() dtype=float32, numpy=4.0>"]
    assert got["copy_class"] == "ResourceVariable"
    assert got["first"] == [True, [0, 1], [2, 3]]
    assert got["last"] is False and got["end"] == "OutOfRangeError"
    assert got["staged"] == [[0, 1], [2, 3]]


def test_merge_call_outside_run_calls_with_the_default_strategy():
    def merge_fn(strategy, v):
        return type(strategy).__name__, v

    assert tf.distribute.get_replica_context().merge_call(merge_fn, args=(1.0,)) == \
        ("_DefaultDistributionStrategy", 1.0)


@pytest.mark.parametrize("size, want", [(0, 0.0), (4, 0.75)])
def test_average_loss_divides_without_nan(size, want):
    assert float(tf.nn.compute_average_loss([1.0, 2.0], global_batch_size=size)) == want
    assert float(tf.nn.compute_average_loss(tf.zeros([0]))) == 0.0


def test_average_loss_rejects_negative_and_float_batch_sizes_as_tf():
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=r"^global_batch_size must be non-negative\.\.  \n"
                       r"Condition x >= 0 did not hold element-wise:\nx \(shape=\(\) dtype=int32\) = \n-2$"):
        tf.nn.compute_average_loss([1.0, 2.0], global_batch_size=-2)
    with pytest.raises(TypeError, match=r"^global_batch_size must be an integer\.\.  Expected \"x\" to be "
                       r"integer type\.  Found: tensor of dtype <dtype: 'float32'>$"):
        tf.nn.compute_average_loss([1.0, 2.0], global_batch_size=2.0)


def test_distributed_element_spec_and_signature_match_tf():
    got = run_with_devices("""
        s = tf.distribute.MirroredStrategy()
        ragged_end = s.experimental_distribute_dataset(tf.data.Dataset.range(8).batch(4))
        even = s.experimental_distribute_dataset(tf.data.Dataset.range(8).batch(4, drop_remainder=True))
        per_fn = s.distribute_datasets_from_function(
            lambda c: tf.data.Dataset.range(8).batch(2, drop_remainder=True))
        step = tf.function(lambda x: s.reduce("SUM", s.run(lambda t: t * 2, args=(x,)), axis=0),
                           input_signature=[even.element_spec])
        sums = [int(step(b)) for b in even]
        try:
            step(tf.constant([1, 2]))
            bad = None
        except TypeError as e:
            bad = str(e)
        emit(specs=[repr(d.element_spec) for d in (ragged_end, even, per_fn)],
             cardinality=[type(ragged_end.cardinality).__name__, int(ragged_end.cardinality)],
             sums=sums, bad=bad)
    """, devices=2)
    spec = "TensorSpec(shape=({}), dtype=companion.int64, name=None)"
    assert got["specs"] == [f"PerReplicaSpec({spec.format('None,')}, {spec.format('None,')})",
                            f"PerReplicaSpec({spec.format('2,')}, {spec.format('2,')})",
                            f"PerReplicaSpec({spec.format('2,')}, {spec.format('2,')})"]
    assert got["cardinality"] == ["int64", 2]
    assert got["sums"] == [12, 44]
    assert got["bad"].startswith("Binding inputs to tf.function failed due to `Can not cast")


def test_per_replica_signature_checks_each_replicas_share_as_tf():
    # TF 2.21: a fixed (2,) spec refuses the 2+1 split of a partial last batch (TypeError) and a float
    # batch, and takes a run's stacked (2,) results; a (None,) spec takes the partial batch
    got = run_with_devices("""
        s = tf.distribute.MirroredStrategy()
        even = s.experimental_distribute_dataset(tf.data.Dataset.range(8).batch(4, drop_remainder=True))
        ragged = s.experimental_distribute_dataset(tf.data.Dataset.range(7).batch(4))
        floats = s.experimental_distribute_dataset(
            tf.data.Dataset.range(8).map(lambda x: tf.cast(x, tf.float32)).batch(4))

        def total(x):
            return s.reduce("SUM", s.run(tf.reduce_sum, args=(x,)), axis=None)

        def outcomes(step, batches):
            found = []
            for batch in batches:
                try:
                    found.append(int(step(batch)))
                except TypeError as e:
                    found.append(type(e).__name__)
            return found

        fixed = tf.function(total, input_signature=[even.element_spec])
        loose = tf.function(total, input_signature=[ragged.element_spec])
        emit(fixed=outcomes(fixed, list(ragged) + [next(iter(floats)),
                                                   s.run(lambda: tf.constant([1, 2], tf.int64))]),
             loose=outcomes(loose, list(ragged)))
    """, devices=2)
    assert got["fixed"] == [6, "TypeError", "TypeError", 6]
    assert got["loose"] == [6, 15]


def test_entering_another_strategys_scope_is_tfs_runtime_error():
    first, second = tf.distribute.MirroredStrategy(), tf.distribute.OneDeviceStrategy("/cpu:0")
    with first.scope():
        with first.scope(), tf.distribute.get_strategy().scope():
            pass  # the same strategy again is fine
        with pytest.raises(RuntimeError, match=r"^Mixing different tf.distribute.Strategy objects: "
                                               r"<.*MirroredStrategy.*> is not <.*OneDeviceStrategy.*>$"):
            with second.scope():
                pass
