"""MirroredStrategy on the default single device."""
import tensorflow as tf

strategy = tf.distribute.MirroredStrategy(["/cpu:0"])
print(strategy.num_replicas_in_sync)
with strategy.scope():
    v = tf.Variable(1.0)
    print(tf.distribute.has_strategy(), tf.distribute.in_cross_replica_context())
print(v.numpy())
print(strategy.extended.variable_created_in_scope(v))
r = strategy.run(lambda: tf.distribute.get_replica_context().replica_id_in_sync_group)
print(r)
