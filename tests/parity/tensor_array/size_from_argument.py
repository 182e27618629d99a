"""A TensorArray whose size, or whose loop's trip count, is a tensor argument of a function."""
import tensorflow as tf


@tf.function
def ramp(n):
    print("tracing ramp")
    ta = tf.TensorArray(tf.float32, size=n)
    for i in tf.range(n):
        ta = ta.write(i, tf.cast(i, tf.float32) / 2.0)
    return ta.stack()


@tf.function
def cumulative(x, n):
    ta = tf.TensorArray(tf.float32, size=0, dynamic_size=True)
    total = tf.constant(0.0)
    for i in tf.range(n):
        total += x[i]
        ta = ta.write(i, total)
    return ta.stack(), ta.size()


print(ramp(tf.constant(4)))
print(ramp(tf.constant(2)))
print(ramp(tf.constant(0)))
print(cumulative(tf.constant([1.0, 2.0, 3.0, 4.0]), tf.constant(3)))
print(tf.data.Dataset.range(3).reduce(tf.constant(0, tf.int64), lambda s, x: s + x))


@tf.function
def dataset_sum(n):
    return tf.data.Dataset.range(n).reduce(tf.constant(0, tf.int64), lambda s, x: s + x)


print(dataset_sum(tf.constant(5, tf.int64)))
