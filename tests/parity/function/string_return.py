"""Strings come back from a function as bytes."""
import tensorflow as tf


@tf.function
def greet(name):
    return tf.strings.join(["hello ", name])

out = greet(tf.constant("world"))
print(out)
print(out.numpy())
print(type(out.numpy()).__name__)
print(out.numpy().decode())
