"""A tensor leaked out of a staged loop cannot be used afterwards."""
import tensorflow as tf


@tf.function
def f(n):
    leaked = []
    for i in tf.range(n):
        leaked.append(i * 2)
    return leaked[0]

try:
    f(tf.constant(3))
except Exception as e:
    print(type(e).__name__, isinstance(e, ValueError))
