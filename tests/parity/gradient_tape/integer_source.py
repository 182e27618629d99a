"""Gradients with respect to integer tensors are None."""
import tensorflow as tf

x = tf.constant(3)
with tf.GradientTape() as tape:
    tape.watch(x)
    y = x * x
print(tape.gradient(y, x))
v = tf.Variable(2.0)
with tf.GradientTape() as tape:
    y = tf.cast(v, tf.int32) * 2
print(tape.gradient(y, v))
