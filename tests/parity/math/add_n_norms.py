"""add_n, reduce_euclidean_norm, l2_normalize, norm."""
import tensorflow as tf

xs = [tf.constant([1.0, 2.0]), tf.constant([3.0, 4.0]), tf.constant([5.0, 6.0])]
print(tf.add_n(xs))
print(tf.math.reduce_euclidean_norm(tf.constant([3.0, 4.0])))
print(tf.math.l2_normalize(tf.constant([3.0, 4.0])))
print(tf.nn.l2_normalize(tf.constant([[3.0, 4.0], [1.0, 0.0]]), axis=1))
print(tf.norm(tf.constant([3.0, 4.0])))
print(tf.norm(tf.constant([[1.0, 2.0], [3.0, 4.0]]), ord="fro", axis=[0, 1]))
print(tf.norm(tf.constant([1.0, -2.0, 3.0]), ord=1))
