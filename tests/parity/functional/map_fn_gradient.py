"""map_fn inside a function, with gradients."""
import tensorflow as tf


@tf.function
def f(x):
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.reduce_sum(tf.map_fn(lambda v: v ** 3, x))
    return y, tape.gradient(y, x)

print(f(tf.constant([1.0, 2.0])))
x = tf.Variable([1.0, 2.0, 3.0])
with tf.GradientTape() as tape:
    y = tf.reduce_sum(tf.scan(lambda a, v: a * v, x))
print(tape.gradient(y, x))
