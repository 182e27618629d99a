"""Division of integers: true division gives float64, floor division and mod follow Python."""
import tensorflow as tf

a = tf.constant([7, -7, 8])
b = tf.constant([2, 2, 3])
print(a / b)
print(a // b)
print(a % b)
print(tf.math.floordiv(a, b), tf.math.floormod(a, b))
print(tf.truncatediv(a, b), tf.truncatemod(a, b))
print(tf.divide(tf.constant(1.0), 3.0))
print(tf.constant([7.0, -7.0]) // 2.0, tf.constant([7.5, -7.5]) % 2.0)
