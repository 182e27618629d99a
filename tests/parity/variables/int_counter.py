"""An integer Variable used as a counter."""
import tensorflow as tf

step = tf.Variable(0, dtype=tf.int64)
for _ in range(3):
    step.assign_add(1)
print(step.numpy(), step.dtype)
c = tf.Variable(0)
c.assign(c + 5)
print(c.numpy())
print(int(c), float(tf.Variable(1.5)))
