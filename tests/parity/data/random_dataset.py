"""Dataset.random's numbers for a seed, per iteration, under repeat and a global seed."""
import tensorflow as tf

ds = tf.data.Dataset.random(seed=4).take(3)
print(list(ds.as_numpy_iterator()), list(ds.as_numpy_iterator()))
ds = tf.data.Dataset.random(seed=4, rerandomize_each_iteration=True).take(3)
print(list(ds.as_numpy_iterator()), list(ds.as_numpy_iterator()))
print(list(ds.repeat(2).as_numpy_iterator()))
tf.random.set_seed(7)
print(list(tf.data.Dataset.random().take(2).as_numpy_iterator()))
print(list(tf.data.Dataset.random(seed=3).take(2).as_numpy_iterator()))
print(tf.data.Dataset.random(seed=4).element_spec)
buckets = tf.data.Dataset.range(6).bucket_by_sequence_length(lambda x: tf.cast(x, tf.int32), [2, 4], [2] * 3)
print(list(buckets.as_numpy_iterator()))
