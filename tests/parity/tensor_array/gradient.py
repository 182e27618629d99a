"""Gradients flow through TensorArray writes and stack."""
import tensorflow as tf

x = tf.Variable(2.0)
with tf.GradientTape() as tape:
    ta = tf.TensorArray(tf.float32, size=3)
    for i in range(3):
        ta = ta.write(i, x * float(i + 1))
    y = tf.reduce_sum(ta.stack())
print(tape.gradient(y, x))

@tf.function
def f(x):
    with tf.GradientTape() as tape:
        tape.watch(x)
        ta = tf.TensorArray(tf.float32, size=3)
        for i in tf.range(3):
            ta = ta.write(i, x ** tf.cast(i, tf.float32))
        y = tf.reduce_sum(ta.stack())
    return tape.gradient(y, x)

print(f(tf.constant(3.0)))
