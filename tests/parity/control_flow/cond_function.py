"""tf.cond inside a function with nested outputs."""
import tensorflow as tf


@tf.function
def f(x):
    return tf.cond(x > 0, lambda: {"a": x, "b": x * 2}, lambda: {"a": -x, "b": x * 0})

print(f(tf.constant(3.0)))
print(f(tf.constant(-3.0)))
