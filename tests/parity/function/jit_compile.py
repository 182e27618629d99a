"""jit_compile=True gives the same values."""
import tensorflow as tf


@tf.function(jit_compile=True)
def fused(x, y, z):
    return (x + y) * z

print(fused(tf.constant([1.0, 2.0]), tf.constant([3.0, 4.0]), tf.constant([2.0, 2.0])))

@tf.function(autograph=False)
def plain(x):
    return x * 2

print(plain(tf.constant(3)))
