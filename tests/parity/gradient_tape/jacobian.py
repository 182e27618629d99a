"""jacobian and batch_jacobian."""
import tensorflow as tf

x = tf.constant([1.0, 2.0, 3.0])
with tf.GradientTape(persistent=True) as tape:
    tape.watch(x)
    y = x * x
print(tape.jacobian(y, x))
xb = tf.constant([[1.0, 2.0], [3.0, 4.0]])
with tf.GradientTape() as tape:
    tape.watch(xb)
    yb = xb * xb
print(tape.batch_jacobian(yb, xb))
