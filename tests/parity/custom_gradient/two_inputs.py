"""A custom gradient with two inputs returns one gradient per input."""
import tensorflow as tf


@tf.custom_gradient
def mul(a, b):
    def grad(dy):
        return dy * b * 10, dy * a
    return a * b, grad

a = tf.constant(2.0)
b = tf.constant(3.0)
with tf.GradientTape(persistent=True) as tape:
    tape.watch([a, b])
    y = mul(a, b)
print(y, tape.gradient(y, a), tape.gradient(y, b))
