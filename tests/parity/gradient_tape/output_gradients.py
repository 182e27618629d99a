"""Gradients of several targets, and output_gradients weighting."""
import tensorflow as tf

x = tf.Variable([1.0, 2.0])
with tf.GradientTape(persistent=True) as tape:
    y1 = x * 2.0
    y2 = x * x
print(tape.gradient([y1, y2], x))
print(tape.gradient(y2, x, output_gradients=tf.constant([1.0, 10.0])))
print(tape.gradient({"a": y1, "b": y2}, x))
