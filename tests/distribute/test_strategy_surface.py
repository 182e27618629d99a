"""`Strategy.extended`'s class names, values from a function, one-device Variables and context texts,
against what TF 2.21 gives."""

import numpy as np
import pytest

import companion as tf
from tests.distribute.replicas import run_with_devices


@pytest.mark.parametrize("make, name", [
    (lambda: tf.distribute.get_strategy(), "_DefaultDistributionExtended"),
    (lambda: tf.distribute.OneDeviceStrategy("/cpu:0"), "OneDeviceExtended"),
    (lambda: tf.distribute.MirroredStrategy(), "MirroredExtended"),
    (lambda: tf.distribute.MultiWorkerMirroredStrategy(), "CollectiveAllReduceExtended"),
    (lambda: tf.distribute.experimental.CentralStorageStrategy(), "ParameterServerStrategyExtended"),
])
def test_extended_has_tfs_class_name_and_forwards_to_the_strategy(make, name):
    strategy = make()
    assert type(strategy.extended).__name__ == name
    assert strategy.extended is strategy.extended
    with strategy.scope():
        v = tf.Variable(1.0)
    assert strategy.extended.variable_created_in_scope(v)


def test_default_strategy_has_no_worker_devices():
    with pytest.raises(RuntimeError, match="worker_devices.. method unsupported by default"):
        tf.distribute.get_strategy().extended.worker_devices  # noqa: B018


def test_mirrored_extended_lists_devices():
    strategy = tf.distribute.MirroredStrategy()
    assert strategy.extended.worker_devices == strategy.extended.parameter_devices
    assert strategy.extended.worker_devices[0].startswith("/job:localhost/replica:0/task:0/device:CPU:")


def test_one_device_scope_keeps_plain_variables():
    strategy = tf.distribute.OneDeviceStrategy("/cpu:0")
    with strategy.scope():
        v = tf.Variable([1.0, 2.0])
    assert type(v).__name__ == "ResourceVariable"  # as TF: not a MirroredVariable
    assert v.synchronization == tf.VariableSynchronization.AUTO
    assert repr(v).startswith("<companion.Variable 'Variable:0' shape=(2,)")
    strategy.run(lambda: v.assign_add([1.0, 1.0]))
    np.testing.assert_array_equal(v.numpy(), [2.0, 3.0])


@pytest.mark.parametrize("make", [lambda: tf.distribute.get_strategy(),
                                  lambda: tf.distribute.OneDeviceStrategy("/cpu:0")])
def test_one_replica_strategies_hand_out_the_value_itself(make):
    value = make().experimental_distribute_values_from_function(lambda ctx: ctx)
    assert str(value) == "tf.distribute.ValueContext(replica id 0,  total replicas in sync: 1)"
    assert make().experimental_distribute_values_from_function(lambda ctx: 1) == 1


def test_mirrored_values_from_function_are_per_replica_leaves():
    strategy = tf.distribute.MirroredStrategy()
    values = strategy.experimental_distribute_values_from_function(
        lambda ctx: (tf.constant(1.0), {"a": tf.constant([2])}))
    per_replica = tf.distribute.PerReplica
    assert isinstance(values[0], per_replica) and isinstance(values[1]["a"], per_replica)
    assert str(values[1]["a"]) == "PerReplica:{\n  0: companion.Tensor([2], shape=(1,), dtype=int32)\n}"
    doubled = strategy.run(lambda x: x * 2, args=(values[1]["a"],))
    np.testing.assert_array_equal(doubled.numpy(), [4])


def test_sum_over_replicas_keeps_the_integer_dtype():
    strategy = tf.distribute.MirroredStrategy()
    values = strategy.experimental_distribute_values_from_function(lambda ctx: tf.constant(3))
    total = strategy.reduce("SUM", values, axis=None)
    assert total.dtype == tf.int32 and int(total) == 3 * strategy.num_replicas_in_sync


def test_input_context_prints_as_tf():
    context = tf.distribute.InputContext(num_input_pipelines=2, input_pipeline_id=1, num_replicas_in_sync=4)
    assert str(context) == "tf.distribute.InputContext(input pipeline id 1, total: 2)"


def test_values_from_function_on_four_replicas():
    result = run_with_devices("""
    strategy = tf.distribute.MirroredStrategy()
    values = strategy.experimental_distribute_values_from_function(
        lambda ctx: tf.fill([2], tf.cast(ctx.replica_id_in_sync_group, tf.float32)))
    local = [v.numpy() for v in strategy.experimental_local_results(values)]
    total = strategy.reduce("SUM", strategy.run(lambda x: x + 1.0, args=(values,)), axis=None)
    try:
        strategy.experimental_distribute_values_from_function(
            lambda ctx: tf.zeros([ctx.replica_id_in_sync_group]))
        error = None
    except ValueError as e:
        error = str(e)
    emit(local=local, total=total.numpy(), error=error)
    """)
    assert result["local"] == [[0, 0], [1, 1], [2, 2], [3, 3]]
    assert result["total"] == [10.0, 10.0]  # (0+1)+(1+1)+(2+1)+(3+1)
    assert "same shape and dtype" in result["error"] and "Pad the values" in result["error"]
