"""zip, enumerate, take, skip, repeat."""
import tensorflow as tf

a = tf.data.Dataset.range(3)
b = tf.data.Dataset.from_tensor_slices(["x", "y", "z"])
print(list(tf.data.Dataset.zip((a, b)).as_numpy_iterator()))
print(list(b.enumerate(start=1).as_numpy_iterator()))
print(list(tf.data.Dataset.range(10).skip(3).take(4).as_numpy_iterator()))
print(list(a.repeat(2).as_numpy_iterator()))
print(a.repeat().cardinality().numpy() == tf.data.INFINITE_CARDINALITY)
print(list(tf.data.Dataset.zip(a, b).take(1).as_numpy_iterator()))
