"""print inside a staged loop runs once while tracing; tf.print every iteration."""
import sys

import tensorflow as tf


@tf.function
def f(n):
    i = tf.constant(0)
    while i < n:
        print("python print", i.dtype)
        tf.print("tf.print", i, output_stream=sys.stdout)
        i += 1
    return i

print(f(tf.constant(3)))
print(f(tf.constant(2)))
