"""An eager strategy.run on one replica runs the Python function on every call; a function traces it."""
import tensorflow as tf

strategy = tf.distribute.MirroredStrategy(["/cpu:0"])
with strategy.scope():
    v = tf.Variable(1.0)


def step(x):
    print("python ran")
    v.assign_add(x)
    s = tf.distribute.get_replica_context().all_reduce(tf.distribute.ReduceOp.SUM, x * 2.0)
    tf.print("tf.print", s)
    return s


for i in range(3):
    out = strategy.run(step, args=(tf.constant(float(i)),))
    print(out, v.numpy())
print(strategy.reduce("SUM", out, axis=None))


@tf.function
def f(x):
    return strategy.run(step, args=(x,))


print(f(tf.constant(2.0)))
print(f(tf.constant(3.0)))
print(v.numpy())
