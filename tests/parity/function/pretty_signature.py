"""Concrete function signatures of a polymorphic function."""
import tensorflow as tf


@tf.function
def f(x, y=1):
    return x * y

f(tf.constant(1.0))
f(tf.constant([1, 2]), y=3)
print(len(f.experimental_get_tracing_count.__name__) > 0)
print(f.experimental_get_tracing_count())
cf = f.get_concrete_function(tf.TensorSpec([None], tf.float32))
print(cf(tf.constant([2.0, 3.0])))
print(f.experimental_get_tracing_count())
