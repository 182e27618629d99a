"""Gradients flow through the branch that ran."""
import tensorflow as tf

x = tf.Variable(3.0)
with tf.GradientTape() as tape:
    y = tf.cond(x > 2.0, lambda: x * x, lambda: x * 10)
print(tape.gradient(y, x))

@tf.function
def g(x):
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.cond(x > 2.0, lambda: x * x, lambda: x * 10)
    return tape.gradient(y, x)

print(g(tf.constant(1.0)), g(tf.constant(4.0)))
