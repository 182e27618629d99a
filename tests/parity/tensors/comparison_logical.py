"""Comparisons and logical reductions."""
import tensorflow as tf

a = tf.constant([1, 5, 3])
b = tf.constant([2, 5, 1])
print(tf.equal(a, b))
print(a > b)
print(tf.not_equal(a, b))
print(tf.logical_and(a > 1, b < 5))
print(tf.logical_or(a > 4, b > 4))
print(tf.logical_not(a > 2))
print(tf.reduce_any(a > 4), tf.reduce_all(a > 0))
print(tf.math.logical_xor(a > 2, b > 2))
print(a == b)
