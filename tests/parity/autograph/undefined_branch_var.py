"""A variable defined in only one branch of a tensor if is an error."""
import tensorflow as tf


@tf.function
def f(x):
    if x > 0:
        y = x
    return y

try:
    f(tf.constant(1))
except Exception as e:
    print(type(e).__name__, isinstance(e, ValueError))
