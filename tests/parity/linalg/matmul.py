"""matmul with transposes and linalg aliases."""
import tensorflow as tf

a = tf.constant([[1.0, 2.0], [3.0, 4.0]])
b = tf.constant([[0.0, 1.0], [1.0, 0.0]])
print(tf.matmul(a, b, transpose_a=True))
print(tf.matmul(a, b, transpose_b=True))
print(tf.linalg.matmul(a, a))
print(tf.linalg.matvec(a, tf.constant([1.0, 1.0])))
print(tf.linalg.matrix_transpose(tf.zeros((3, 2, 4))).shape)
print(tf.linalg.adjoint(a))
