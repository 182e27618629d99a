"""Broadcasting with multiply and +."""
import tensorflow as tf

a = tf.constant([[1, 2, 3], [4, 5, 6]])
b = tf.constant([10, 20, 30])
print(tf.multiply(a, b))
print(a + b)
print(a * 2)
c = tf.constant([[1.0], [2.0]])
print(c + tf.constant([1.0, 2.0, 3.0]))
print(tf.broadcast_to(tf.constant([1, 2]), (3, 2)))
print(tf.broadcast_static_shape(tf.TensorShape([2, 1]), tf.TensorShape([1, 3])))
