"""The RNN-style accumulate pattern inside a function."""
import tensorflow as tf


@tf.function
def running_sum(xs):
    ta = tf.TensorArray(tf.float32, size=tf.shape(xs)[0])
    total = tf.constant(0.0)
    for i in tf.range(tf.shape(xs)[0]):
        total += xs[i]
        ta = ta.write(i, total)
    return ta.stack()

print(running_sum(tf.constant([1.0, 2.0, 3.0, 4.0])))

@tf.function
def squares(n):
    ta = tf.TensorArray(tf.int32, size=0, dynamic_size=True)
    for i in tf.range(n):
        ta = ta.write(i, i * i)
    return ta.stack()

print(squares(tf.constant(5)))
