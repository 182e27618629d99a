"""tile, expand_dims, squeeze, transpose, pad, reverse."""
import tensorflow as tf

x = tf.constant([[1, 2, 3]])
print(tf.tile(x, [2, 2]))
print(tf.expand_dims(x, 0).shape, tf.expand_dims(x, -1).shape)
print(tf.squeeze(tf.zeros((1, 3, 1))).shape)
print(tf.squeeze(tf.zeros((1, 3, 1)), axis=[0]).shape)
print(tf.transpose(tf.reshape(tf.range(6), (2, 3))))
print(tf.transpose(tf.zeros((2, 3, 4)), perm=[2, 0, 1]).shape)
print(tf.pad(x, [[1, 0], [0, 2]]))
print(tf.reverse(x, axis=[1]))
