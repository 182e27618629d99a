"""print of tensors of several ranks and dtypes."""
import tensorflow as tf

print(tf.constant(3))
print(tf.constant(2.5))
print(tf.constant([1, 2, 3]))
print(tf.constant([[1.5, 2.0], [3.25, 4.0]]))
print(tf.constant(True))
print(tf.constant([True, False]))
print(tf.constant(1.0, dtype=tf.float64))
print(tf.constant([1, 2], dtype=tf.int64))
print(tf.constant([1.0, 2.0], dtype=tf.float16))
print(tf.zeros((2, 0)))
