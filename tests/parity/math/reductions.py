"""Reductions along axes, with keepdims."""
import tensorflow as tf

x = tf.constant([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
print(tf.reduce_sum(x))
print(tf.reduce_sum(x, axis=0))
print(tf.reduce_sum(x, axis=1, keepdims=True))
print(tf.reduce_mean(x), tf.reduce_mean(x, axis=[0, 1]))
print(tf.reduce_max(x, axis=-1), tf.reduce_min(x, axis=0))
print(tf.reduce_prod(x))
print(tf.reduce_mean(tf.constant([1, 2])))
print(tf.math.reduce_std(x), tf.math.reduce_variance(x, axis=0))
print(tf.reduce_logsumexp(x, axis=1))
