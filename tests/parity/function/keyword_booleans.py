"""A keyword boolean such as training= is part of the trace key."""
import tensorflow as tf


@tf.function
def layer(x, training=False):
    print("trace training =", training)
    if training:
        return x * 0.5
    return x

x = tf.constant([2.0, 4.0])
print(layer(x))
print(layer(x, training=True))
print(layer(x, training=True))
print(layer(x, True))
print(layer(x, training=False))
print(layer(x))
print(layer.experimental_get_tracing_count())
