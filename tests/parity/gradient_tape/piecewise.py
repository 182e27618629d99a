"""Gradients through where, maximum, abs and reduce_max."""
import tensorflow as tf

x = tf.Variable([-1.0, 0.5, 2.0])
with tf.GradientTape(persistent=True) as tape:
    a = tf.reduce_sum(tf.where(x > 0, x * x, -x))
    b = tf.reduce_sum(tf.maximum(x, 0.0))
    c = tf.reduce_max(x)
    d = tf.reduce_sum(tf.abs(x))
    e = tf.reduce_sum(tf.nn.relu(x))
for value in (a, b, c, d, e):
    print(tape.gradient(value, x))
