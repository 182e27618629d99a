"""inv, det, solve, slogdet."""
import tensorflow as tf

a = tf.constant([[4.0, 7.0], [2.0, 6.0]])
print(tf.linalg.inv(a))
print(tf.linalg.det(a))
print(tf.linalg.solve(a, tf.constant([[1.0], [2.0]])))
sign, logdet = tf.linalg.slogdet(a)
print(sign, logdet)
print(tf.matmul(a, tf.linalg.inv(a)))
print(tf.linalg.pinv(tf.constant([[1.0, 2.0], [2.0, 4.0]])))
