"""range with dtype, cache and prefetch."""
import tensorflow as tf

ds = tf.data.Dataset.range(4, output_type=tf.int32).cache().prefetch(tf.data.AUTOTUNE)
print(ds.element_spec)
print(list(ds.as_numpy_iterator()))
print(list(ds.as_numpy_iterator()))
print(tf.data.AUTOTUNE)
print(list(tf.data.Dataset.range(2, 10, 3).as_numpy_iterator()))
