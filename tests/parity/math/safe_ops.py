"""divide_no_nan, xlogy, maximum, minimum, squared_difference."""
import tensorflow as tf

a = tf.constant([1.0, 2.0, 0.0])
b = tf.constant([0.0, 4.0, 0.0])
print(tf.math.divide_no_nan(a, b))
print(tf.math.xlogy(tf.constant([0.0, 2.0]), tf.constant([0.0, 3.0])))
print(tf.maximum(a, b), tf.minimum(a, b))
print(tf.math.squared_difference(a, b))
print(tf.math.multiply_no_nan(tf.constant([float("inf"), 1.0]), tf.constant([0.0, 2.0])))
print(tf.math.maximum(tf.constant([1, 5]), 3))
