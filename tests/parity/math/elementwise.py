"""Elementwise math functions."""
import tensorflow as tf

x = tf.constant([0.5, 1.0, 2.0, 4.0])
print(tf.math.log(x))
print(tf.exp(x))
print(tf.sqrt(x))
print(tf.pow(x, 2))
print(tf.square(x))
print(tf.math.rsqrt(x))
print(tf.math.reciprocal(x))
print(tf.math.log1p(x), tf.math.expm1(tf.constant(1.0)))
print(tf.sin(x), tf.cos(x))
print(tf.math.atan2(tf.constant(1.0), tf.constant(1.0)))
