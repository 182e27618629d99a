"""OneDeviceStrategy: run and reduce."""
import tensorflow as tf

strategy = tf.distribute.OneDeviceStrategy("/cpu:0")
print(strategy.num_replicas_in_sync)
with strategy.scope():
    v = tf.Variable(2.0)
print(tf.distribute.has_strategy())

@tf.function
def step(x):
    return strategy.run(lambda x: x * v, args=(x,))

out = step(tf.constant([1.0, 2.0]))
print(out)
print(strategy.reduce(tf.distribute.ReduceOp.SUM, out, axis=None))
print(strategy.reduce(tf.distribute.ReduceOp.MEAN, out, axis=0))
