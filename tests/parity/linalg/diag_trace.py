"""eye, diag, diag_part, trace, band_part, set_diag."""
import tensorflow as tf

m = tf.reshape(tf.range(9.0), (3, 3))
print(tf.linalg.diag(tf.constant([1.0, 2.0])))
print(tf.linalg.diag_part(m))
print(tf.linalg.trace(m))
print(tf.linalg.band_part(m, 0, -1))
print(tf.linalg.band_part(m, 1, 0))
print(tf.linalg.set_diag(m, tf.zeros(3)))
print(tf.eye(2, 3, batch_shape=[2]).shape)
print(tf.linalg.tensor_diag_part(m))
