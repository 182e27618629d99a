"""Nested tapes give second derivatives; a gradient asked outside both is still available."""
import tensorflow as tf

x = tf.Variable(1.0)
with tf.GradientTape() as tape_2:
    with tf.GradientTape() as tape_1:
        y = x * x * x
    dy_dx = tape_1.gradient(y, x)
d2y_dx2 = tape_2.gradient(dy_dx, x)
print(dy_dx)
print(d2y_dx2)

with tf.GradientTape() as tape_2:
    with tf.GradientTape() as tape_1:
        y = x * x * x
dy_dx = tape_1.gradient(y, x)
print(dy_dx)
print(tape_2.gradient(dy_dx, x))
