"""A traced function runs only the ops its outputs need (the graphs guide's unused gather)."""
import tensorflow as tf


def unused_return_eager(x):
    tf.gather(x, [1])  # unused
    return x


try:
    print(unused_return_eager(tf.constant([0.0])))
except tf.errors.InvalidArgumentError as e:
    print(type(e).__name__)


@tf.function
def unused_return_graph(x):
    tf.gather(x, [1])  # unused
    tf.tensor_scatter_nd_update(x, [[4]], [1.0])  # unused
    return x


print(unused_return_graph(tf.constant([0.0])))


@tf.function
def used_return_graph(x):
    return tf.gather(x, [1])


try:
    print(used_return_graph(tf.constant([0.0])))
except tf.errors.InvalidArgumentError as e:
    print(type(e).__name__)
