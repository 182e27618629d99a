"""argmax with ties, top_k, in_top_k."""
import tensorflow as tf

x = tf.constant([[1.0, 3.0, 3.0], [2.0, 2.0, 0.0]])
print(tf.argmax(x, axis=1), tf.argmax(x, axis=0))
print(tf.math.argmax(x, axis=1, output_type=tf.int32))
v, i = tf.math.top_k(x, k=2)
print(v)
print(i)
print(tf.math.in_top_k(tf.constant([2, 0]), x, k=1))
print(tf.argmin(tf.constant([4, 1, 1])))
