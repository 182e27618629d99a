"""Assigning to a slice of a Variable and scatter updates."""
import tensorflow as tf

v = tf.Variable([[1.0, 2.0], [3.0, 4.0]])
v[0, 1].assign(9.0)
print(v.numpy())
v[1].assign([7.0, 8.0])
print(v.numpy())
v.scatter_nd_update([[0, 0]], [5.0])
print(v.numpy())
w = tf.Variable([1, 2, 3, 4])
w.scatter_add(tf.IndexedSlices(tf.constant([10, 20]), tf.constant([0, 3])))
print(w.numpy())
