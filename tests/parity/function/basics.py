"""A tf.function gives the same values as the Python function."""
import tensorflow as tf


@tf.function
def add(a, b):
    return a + b

print(add(tf.ones([2, 2]), tf.ones([2, 2])))
print(add(1, 2))
print(add(tf.constant(1.5), 2.0))
print(type(add).__name__)
print(callable(add), hasattr(add, "get_concrete_function"))
