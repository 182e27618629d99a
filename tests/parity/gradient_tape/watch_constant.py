"""Watching a constant: d/dx of (sum x)^2 at ones((2, 2)) is 8 everywhere."""
import tensorflow as tf

x = tf.ones((2, 2))
with tf.GradientTape() as t:
    t.watch(x)
    y = tf.reduce_sum(x)
    z = tf.square(y)
dz_dx = t.gradient(z, x)
print(dz_dx)
with tf.GradientTape() as t:
    t.watch(x)
    y = tf.reduce_sum(x)
    z = tf.square(y)
print(t.gradient(z, y))
