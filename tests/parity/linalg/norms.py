"""linalg.norm with several orders and axes."""
import tensorflow as tf

m = tf.constant([[1.0, -2.0], [3.0, 4.0]])
print(tf.linalg.norm(m))
print(tf.linalg.norm(m, axis=1))
print(tf.linalg.norm(m, ord=1, axis=0))
print(tf.linalg.norm(m, ord=2, axis=[0, 1]))
print(tf.linalg.norm(m, ord=float("inf"), axis=1))
print(tf.linalg.normalize(tf.constant([3.0, 4.0]))[0])
