"""experimental_distribute_dataset with one replica hands out plain batches."""
import tensorflow as tf

strategy = tf.distribute.MirroredStrategy(["/cpu:0"])
global_batch = 4 * strategy.num_replicas_in_sync
ds = tf.data.Dataset.range(10).batch(global_batch)
dist = strategy.experimental_distribute_dataset(ds)
for batch in dist:
    print(batch.numpy().tolist())

@tf.function
def step(batch):
    per_replica = strategy.run(lambda b: tf.reduce_sum(b), args=(batch,))
    return strategy.reduce(tf.distribute.ReduceOp.SUM, per_replica, axis=None)

print([int(step(b)) for b in dist])
