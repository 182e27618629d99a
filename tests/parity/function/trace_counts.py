"""Traces happen once per new input signature (shape and dtype)."""
import tensorflow as tf


@tf.function
def double(a):
    print("Tracing with", a)
    return a + a

print(double(tf.constant(1)))
print(double(tf.constant(1.1)))
print(double(tf.constant("a")))
print(double(tf.constant(2)))
print(double(tf.constant([1, 2])))
print(double.experimental_get_tracing_count())
