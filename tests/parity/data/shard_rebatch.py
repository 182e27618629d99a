"""shard and rebatch-like behaviour."""
import tensorflow as tf

ds = tf.data.Dataset.range(10)
print(list(ds.shard(3, 0).as_numpy_iterator()))
print(list(ds.shard(3, 2).as_numpy_iterator()))
print([b.numpy().tolist() for b in ds.batch(4).rebatch(2)])
