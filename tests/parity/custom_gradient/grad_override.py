"""stop_gradient trick and a custom gradient that scales."""
import tensorflow as tf


@tf.custom_gradient
def scale_grad(x):
    return tf.identity(x), lambda dy: dy * 0.1

x = tf.Variable([1.0, 2.0])
with tf.GradientTape() as tape:
    y = tf.reduce_sum(scale_grad(x) ** 2)
print(tape.gradient(y, x))
with tf.GradientTape() as tape:
    z = x + tf.stop_gradient(tf.round(x) - x)
    loss = tf.reduce_sum(z * 3.0)
print(tape.gradient(loss, x))
