"""A function that would make a new Variable on every call raises ValueError on the first call."""
import tensorflow as tf


@tf.function
def f(x):
    v = tf.Variable(1.0)
    return v + x

try:
    f(tf.constant(1.0))
except ValueError as e:
    print("ValueError", type(e).__name__)

v = tf.Variable(1.0)

@tf.function
def g(x):
    return v.assign_add(x)

print(g(tf.constant(2.0)))
print(g(tf.constant(2.0)))
