"""Casting between dtypes truncates toward zero and wraps unsigned types."""
import tensorflow as tf

x = tf.constant([1.7, -2.3, 3.5])
print(tf.cast(x, tf.int32))
print(tf.cast(x, tf.float64).dtype)
print(tf.cast(tf.constant([1, 2, 3]), tf.uint32))
print(tf.cast(tf.constant([0.0, 1.0, 2.0]), tf.bool))
print(tf.cast(tf.constant([True, False]), tf.float32))
print(tf.cast(tf.constant(3, dtype=tf.int64), tf.float32).numpy())
