"""A tape around a tf.function, and a tape inside one."""
import tensorflow as tf


@tf.function
def f(x):
    return x ** 3

x = tf.Variable(2.0)
with tf.GradientTape() as tape:
    y = f(x)
print(tape.gradient(y, x))

@tf.function
def grad(x):
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.sin(x)
    return tape.gradient(y, x)

print(grad(tf.constant(0.0)))
