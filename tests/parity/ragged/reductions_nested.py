"""Reductions of RaggedTensors of ragged rank 2 (axis 1, 2, -1), over rows with inner dims, and the spread."""
import tensorflow as tf

n = tf.ragged.constant([[[1, 2], [3]], [[4, 5, 6]], []])
print(tf.reduce_sum(n, axis=2), tf.reduce_sum(n, axis=1), tf.reduce_max(n, axis=-1))
print(tf.reduce_mean(tf.cast(n, tf.float32), axis=1), tf.reduce_sum(n))
print(tf.reduce_sum(n, axis=2, keepdims=True))
r = tf.ragged.constant([[1.0, 2.0, 4.0], [3.0], []])
print(tf.math.reduce_std(r, axis=1), tf.math.reduce_variance(r, axis=-1), tf.math.reduce_variance(r))
u = tf.ragged.constant([[[1, 2], [3, 4]], [[5, 6]]], ragged_rank=1)
print(tf.reduce_sum(u, axis=2), tf.reduce_sum(u, axis=1), tf.reduce_mean(tf.cast(u, tf.float32), axis=1))
