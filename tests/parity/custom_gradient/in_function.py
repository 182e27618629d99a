"""custom_gradient inside a function and with a Variable."""
import tensorflow as tf


@tf.custom_gradient
def straight_through_round(x):
    def grad(dy):
        return dy
    return tf.round(x), grad

@tf.function
def f(x):
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.reduce_sum(straight_through_round(x) * x)
    return y, tape.gradient(y, x)

print(f(tf.constant([0.4, 1.6])))
