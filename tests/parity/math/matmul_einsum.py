"""matmul, tensordot, einsum and the @ operator."""
import numpy as np
import tensorflow as tf

a = tf.constant(np.arange(6.0).reshape(2, 3), dtype=tf.float32)
b = tf.constant(np.arange(12.0).reshape(3, 4), dtype=tf.float32)
print(tf.matmul(a, b))
print(a @ b)
print(tf.tensordot(a, b, axes=1).shape)
print(tf.tensordot(a, a, axes=[[0, 1], [0, 1]]))
print(tf.einsum("ij,jk->ik", a, b))
print(tf.einsum("ij->j", a))
print(tf.matmul(tf.ones((5, 2, 3)), tf.ones((5, 3, 1))).shape)
