"""int() and float() of a tensor inside function: AutoGraph casts (int32, float32) as TF does."""
import tensorflow as tf


@tf.function
def f(x):
    return int(x), float(x), int(x * 2.5), float(tf.constant(True)), int(tf.constant(7, tf.int64))


for value in [3.7, -2.2]:
    print([t.numpy().item() for t in f(tf.constant(value))], [t.dtype.name for t in f(tf.constant(value))])


@tf.function
def g(x):
    return int(x), float(x), int(3.9), float("2.5")


print(g(tf.constant([1, 2])))
