"""reduce_retracing relaxes to an unknown rank: outputs that follow the rank are unknown too."""
import tensorflow as tf


@tf.function(reduce_retracing=True)
def f(x):
    return x + 1, tf.shape(x)


for shape in ([1], [2], [2, 2], [3, 2]):
    f(tf.ones(shape))

print(f.pretty_printed_concrete_signatures())
