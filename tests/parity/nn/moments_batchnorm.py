"""moments and batch_normalization."""
import tensorflow as tf

x = tf.constant([[1.0, 2.0], [3.0, 6.0], [5.0, 10.0]])
mean, var = tf.nn.moments(x, axes=[0])
print(mean, var)
y = tf.nn.batch_normalization(x, mean, var, offset=None, scale=None, variance_epsilon=1e-3)
print(y)
print(tf.nn.moments(x, axes=[0, 1], keepdims=True)[0].shape)
