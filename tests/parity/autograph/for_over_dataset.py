"""A for loop over a Dataset inside a function."""
import tensorflow as tf


@tf.function
def total(ds):
    s = tf.constant(0, dtype=tf.int64)
    for x in ds:
        s += x
    return s

print(total(tf.data.Dataset.range(10)))
print(total(tf.data.Dataset.range(5).map(lambda x: x * x)))
