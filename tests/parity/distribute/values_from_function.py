"""Values made per replica by a function, the strategy's `extended` kind and one-device Variables."""
import tensorflow as tf

for strategy in [tf.distribute.get_strategy(), tf.distribute.OneDeviceStrategy("/cpu:0"),
                 tf.distribute.MirroredStrategy()]:
    print(type(strategy.extended).__name__)
    with strategy.scope():
        v = tf.Variable(2.0, name="v")
    print(v.synchronization, v.aggregation, strategy.extended.variable_created_in_scope(v))
    values = strategy.experimental_distribute_values_from_function(
        lambda ctx: tf.constant(ctx.replica_id_in_sync_group + 1))
    print(values)
    print(strategy.reduce("SUM", values, axis=None))
    doubled = strategy.run(lambda x: x * 2, args=(values,))
    print(strategy.experimental_local_results(doubled))
    print(tf.distribute.InputContext(num_input_pipelines=2, input_pipeline_id=1, num_replicas_in_sync=2))
