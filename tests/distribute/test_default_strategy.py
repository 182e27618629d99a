"""The default strategy and replica context (outside any scope), and ReduceOp conversions.

Expected values are what TF 2.21 gives (checked in /work/tfenv) with one CPU device.
"""

import pytest

import companion as tf


def test_the_default_strategy_and_replica_context():
    strategy = tf.distribute.get_strategy()
    assert type(strategy).__name__ == "_DefaultDistributionStrategy"
    assert strategy.num_replicas_in_sync == 1
    assert tf.distribute.in_cross_replica_context() is False  # the default replica context
    assert tf.distribute.has_strategy() is False
    context = tf.distribute.get_replica_context()
    assert type(context).__name__ == "_DefaultReplicaContext"
    assert context.replica_id_in_sync_group == 0 and type(context.replica_id_in_sync_group) is int
    assert context.num_replicas_in_sync == 1 and context.strategy is strategy
    with strategy.scope():  # entering the default scope changes none of it
        assert tf.distribute.in_cross_replica_context() is False
        assert tf.distribute.get_replica_context() is context


def test_the_default_context_inside_a_function():
    seen = []

    @tf.function
    def f():
        context = tf.distribute.get_replica_context()
        seen.append((type(context).__name__, context.replica_id_in_sync_group,
                     tf.distribute.in_cross_replica_context()))
        return tf.constant(1)

    f()
    assert seen == [("_DefaultReplicaContext", 0, False)]  # TF 2.21, while tracing


def test_run_calls_the_function_in_a_replica_context():
    strategy = tf.distribute.get_strategy()
    seen = {}

    def fn(x):
        context = tf.distribute.get_replica_context()
        seen.update(kind=type(context).__name__, replica=int(context.replica_id_in_sync_group),
                    cross=tf.distribute.in_cross_replica_context(), has=tf.distribute.has_strategy())
        return x * 2

    result = strategy.run(fn, args=(tf.constant(3),))
    assert int(result) == 6 and isinstance(result, tf.Tensor)
    # TF 2.21: a plain ReplicaContext whose replica id is a tensor 0; not cross-replica, no strategy
    assert seen == {"kind": "ReplicaContext", "replica": 0, "cross": False, "has": False}


def test_reduce_under_the_default_strategy():
    strategy = tf.distribute.get_strategy()
    values = tf.constant([1.0, 2.0])
    assert float(strategy.reduce(tf.distribute.ReduceOp.SUM, values, axis=0)) == 3.0
    assert float(strategy.reduce("MEAN", values, axis=0)) == 1.5
    assert strategy.reduce("SUM", values, axis=None) is values  # TF 2.21: handed back as it is
    assert strategy.reduce("SUM", 3.0, axis=None) == 3.0


def test_every_variable_counts_as_created_in_the_default_scope():
    assert tf.distribute.get_strategy().extended.variable_created_in_scope(tf.Variable(1.0)) is True


def test_reduce_op_from_variable_aggregation():
    ReduceOp = tf.distribute.ReduceOp  # noqa: N806 (TF's class)
    assert ReduceOp.from_variable_aggregation(tf.VariableAggregation.SUM) is ReduceOp.SUM
    assert ReduceOp.from_variable_aggregation(tf.VariableAggregation.MEAN) is ReduceOp.MEAN
    summed = tf.Variable(1.0, aggregation=tf.VariableAggregation.SUM)
    assert ReduceOp.from_variable_aggregation(summed.aggregation) is ReduceOp.SUM
    for aggregation in (tf.VariableAggregation.NONE, tf.VariableAggregation.ONLY_FIRST_REPLICA):
        with pytest.raises(ValueError, match="SUM and MEAN"):  # TF 2.21: ValueError
            ReduceOp.from_variable_aggregation(aggregation)
    with pytest.raises(ValueError):  # a plain Variable's (older enum) NONE as well
        ReduceOp.from_variable_aggregation(tf.Variable(1.0).aggregation)


def test_one_device_strategies_hand_out_plain_tensors():
    for strategy in (tf.distribute.MirroredStrategy(["/cpu:0"]), tf.distribute.OneDeviceStrategy("/cpu:0")):
        dataset = tf.data.Dataset.range(10).batch(4)
        batches = list(strategy.experimental_distribute_dataset(dataset))
        assert all(isinstance(b, tf.Tensor) for b in batches)  # TF 2.21: EagerTensor batches
        assert [b.numpy().tolist() for b in batches] == [[0, 1, 2, 3], [4, 5, 6, 7], [8, 9]]

        @tf.function
        def step(batch, strategy=strategy):
            per_replica = strategy.run(tf.reduce_sum, args=(batch,))
            return strategy.reduce(tf.distribute.ReduceOp.SUM, per_replica, axis=None)

        assert [int(step(b)) for b in batches] == [6, 22, 17]
        replica = strategy.run(lambda: tf.distribute.get_replica_context().replica_id_in_sync_group)
        assert isinstance(replica, tf.Tensor) and int(replica) == 0


def test_variables_created_in_a_scope():
    strategy = tf.distribute.MirroredStrategy(["/cpu:0"])
    with strategy.scope():
        assert tf.distribute.has_strategy() and tf.distribute.in_cross_replica_context()
        assert tf.distribute.get_replica_context() is None
        v = tf.Variable(1.0)
        summed = tf.Variable(0.0, aggregation=tf.VariableAggregation.SUM)
        metric = tf.keras.metrics.Mean()
    assert strategy.extended.variable_created_in_scope(v)
    assert not strategy.extended.variable_created_in_scope(tf.Variable(1.0))
    assert not tf.distribute.OneDeviceStrategy("/cpu:0").extended.variable_created_in_scope(v)
    # TF 2.21: MirroredVariable, aggregation NONE (older enum), synchronization ON_WRITE
    assert type(v).__name__ == "MirroredVariable"
    assert str(v.aggregation) == "VariableAggregation.NONE"
    assert v.synchronization is tf.VariableSynchronization.ON_WRITE
    assert summed.aggregation is tf.VariableAggregation.SUM
    for weight in metric.variables:  # metric totals are summed over replicas, synchronized on read
        assert weight._aggregation == tf.VariableAggregation.SUM
        assert weight._synchronization is tf.VariableSynchronization.ON_READ and not weight.trainable
        # Keras 3 names them as strings; its weights keep their own class under a strategy
        assert (weight.aggregation, weight.synchronization) == ("sum", "on_read")
        assert repr(weight).startswith("<Variable path=mean/")
