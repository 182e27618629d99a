"""A non-persistent tape can be asked for gradients once."""
import tensorflow as tf

x = tf.constant(3.0)
with tf.GradientTape() as t:
    t.watch(x)
    y = x * x
    z = y * y
print(t.gradient(z, x))
try:
    t.gradient(y, x)
except RuntimeError as e:
    print("RuntimeError", type(e).__name__)
