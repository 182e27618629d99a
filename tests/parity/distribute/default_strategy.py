"""Outside any scope the default strategy is in charge."""
import tensorflow as tf

s = tf.distribute.get_strategy()
print(type(s).__name__)
print(s.num_replicas_in_sync)
print(tf.distribute.in_cross_replica_context())
print(tf.distribute.has_strategy())
ctx = tf.distribute.get_replica_context()
print(type(ctx).__name__, ctx.num_replicas_in_sync, ctx.replica_id_in_sync_group)
print(s.run(lambda x: x * 2, args=(tf.constant(3),)))
print(s.reduce(tf.distribute.ReduceOp.SUM, tf.constant([1.0, 2.0]), axis=0))
