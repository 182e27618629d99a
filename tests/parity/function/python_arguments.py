"""Python scalars retrace per value; tensors do not."""
import tensorflow as tf


@tf.function
def f(x):
    print("trace", x)
    return x * 2

f(1)
f(2)
f(1)
f(tf.constant(1))
f(tf.constant(2))
print(f.experimental_get_tracing_count())
f(1.0)
f(True)
print(f.experimental_get_tracing_count())
