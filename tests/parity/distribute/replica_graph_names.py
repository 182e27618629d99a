"""Inside a function, a replica function's tensors print as TF's graph tensors: the replica id and
the ops on the replica's device, the arguments under the function's own names."""
import tensorflow as tf

strategy = tf.distribute.MirroredStrategy(["/cpu:0"])


@tf.function
def f(x):
    def step(x):
        print(tf.distribute.get_replica_context().replica_id_in_sync_group)
        y = x * 2
        print(y, x)
        return y + 1

    return strategy.run(step, args=(x,))


print(f(tf.constant(1.0)))
