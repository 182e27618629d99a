"""interleave over datasets built in the map function."""
import tensorflow as tf

ds = tf.data.Dataset.range(1, 4).interleave(lambda x: tf.data.Dataset.from_tensors(x).repeat(2),
                                            cycle_length=2, block_length=1)
print(list(ds.as_numpy_iterator()))
ds = tf.data.Dataset.range(3).interleave(lambda x: tf.data.Dataset.range(x * 10, x * 10 + 2), cycle_length=3,
                                         num_parallel_calls=tf.data.AUTOTUNE, deterministic=True)
print(list(ds.as_numpy_iterator()))
