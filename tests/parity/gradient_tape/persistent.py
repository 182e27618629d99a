"""A persistent tape gives several gradients: 108 and 6 at x = 3."""
import tensorflow as tf

x = tf.constant(3.0)
with tf.GradientTape(persistent=True) as t:
    t.watch(x)
    y = x * x
    z = y * y
print(t.gradient(z, x))
print(t.gradient(y, x))
print(t.persistent if hasattr(t, "persistent") else "no attribute")
del t
