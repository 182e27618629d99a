"""clip_by_value, clip_by_norm, clip_by_global_norm, global_norm."""
import tensorflow as tf

x = tf.constant([[-2.0, 0.5], [3.0, 1.0]])
print(tf.clip_by_value(x, -1.0, 1.0))
print(tf.clip_by_norm(tf.constant([3.0, 4.0]), 1.0))
print(tf.clip_by_norm(x, 2.0, axes=[1]))
grads = [tf.constant([3.0, 4.0]), tf.constant([12.0])]
clipped, norm = tf.clip_by_global_norm(grads, 6.5)
print([g.numpy() for g in clipped], norm.numpy())
print(tf.linalg.global_norm(grads))
print(tf.clip_by_value(tf.constant([1, 5, 9]), 2, 6))
