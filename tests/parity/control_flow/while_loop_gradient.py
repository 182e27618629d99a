"""A tape differentiates through a while_loop whose trip count is a tensor."""
import tensorflow as tf

x = tf.Variable(1.5)
n = tf.constant(3)
with tf.GradientTape() as tape:
    _, y = tf.while_loop(lambda i, y: i < n, lambda i, y: (i + 1, y * x), (0, tf.constant(1.0)))
print(y, tape.gradient(y, x))

@tf.function
def power(x, n):
    with tf.GradientTape() as tape:
        tape.watch(x)
        _, y = tf.while_loop(lambda i, y: i < n, lambda i, y: (i + 1, y * x), (0, tf.constant(1.0)))
    return y, tape.gradient(y, x)

print(power(tf.constant(2.0), tf.constant(4)))
