"""An if on a tensor becomes a cond inside a function."""
import tensorflow as tf


@tf.function
def sign(x):
    if x > 0:
        y = 1
    elif x < 0:
        y = -1
    else:
        y = 0
    return y

print(sign(tf.constant(5)), sign(tf.constant(-2)), sign(tf.constant(0)))

@tf.function
def relu(x):
    if tf.reduce_sum(x) > 0:
        return x
    return tf.zeros_like(x)

print(relu(tf.constant([1.0, -0.5])), relu(tf.constant([-1.0, 0.5])))
