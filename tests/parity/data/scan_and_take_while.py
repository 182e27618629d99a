"""Dataset.scan, take_while, unique and as_numpy_iterator."""
import tensorflow as tf

ds = tf.data.Dataset.range(5).scan(tf.constant(0, tf.int64), lambda s, x: (s + x, s + x))
print(list(ds.as_numpy_iterator()))
print(list(tf.data.Dataset.range(10).take_while(lambda x: x < 4).as_numpy_iterator()))
print(sorted(tf.data.Dataset.from_tensor_slices([1, 2, 1, 3, 2]).unique().as_numpy_iterator()))
