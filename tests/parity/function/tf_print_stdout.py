"""tf.print to sys.stdout runs on every call, print only while tracing."""
import sys

import tensorflow as tf


@tf.function
def f(x):
    print("tracing")
    tf.print("value:", x, output_stream=sys.stdout)
    return x

f(tf.constant(1))
f(tf.constant(2))
f(tf.constant([1, 2, 3]))
tf.print("eager", tf.constant([1.5, 2.5]), output_stream=sys.stdout)
tf.print({"a": tf.constant(1)}, [1, 2], output_stream=sys.stdout)
