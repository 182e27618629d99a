"""tensor_scatter_nd_update/add and scatter_nd."""
import tensorflow as tf

t = tf.zeros((4,), dtype=tf.int32)
print(tf.tensor_scatter_nd_update(t, [[1], [3]], [5, 7]))
print(tf.tensor_scatter_nd_add(tf.ones((2, 2)), [[0, 0]], [10.0]))
print(tf.scatter_nd([[0], [2]], [1.0, 2.0], shape=[4]))
print(tf.tensor_scatter_nd_max(tf.constant([1, 5, 3]), [[0], [1]], [4, 2]))
