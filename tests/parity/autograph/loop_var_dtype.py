"""A loop variable must keep its dtype across iterations of a staged loop."""
import tensorflow as tf


@tf.function
def f(n):
    x = 0
    for i in tf.range(n):
        x = x + tf.cast(i, tf.float32)
    return x

try:
    print(f(tf.constant(3)))
except Exception as e:
    print(type(e).__name__, isinstance(e, TypeError))

@tf.function
def g(n):
    x = 0.0
    for i in tf.range(n):
        x = x + tf.cast(i, tf.float32)
    return x

print(g(tf.constant(4)))
