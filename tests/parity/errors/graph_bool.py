"""Using a symbolic tensor as a Python bool without AutoGraph."""
import tensorflow as tf


@tf.function(autograph=False)
def f(x):
    if x > 0:
        return x
    return -x

try:
    f(tf.constant(1))
except Exception as e:
    print(type(e).__name__, isinstance(e, TypeError))

@tf.function
def g(x):
    return x.numpy()

try:
    g(tf.constant(1))
except Exception as e:
    print(type(e).__name__, isinstance(e, AttributeError))
