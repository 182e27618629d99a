"""Unconnected sources give None, or zeros with UnconnectedGradients.ZERO."""
import tensorflow as tf

x = tf.Variable(2.0)
y = tf.Variable(3.0)
with tf.GradientTape(persistent=True) as tape:
    z = x * x
print(tape.gradient(z, y))
print(tape.gradient(z, y, unconnected_gradients=tf.UnconnectedGradients.ZERO))
print(tape.gradient(z, [x, y]))
print(tape.gradient(z, {"a": x, "b": y}))
