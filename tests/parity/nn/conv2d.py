"""conv2d shapes and values with VALID and SAME padding and strides."""
import numpy as np
import tensorflow as tf

x = tf.constant(np.arange(16.0, dtype=np.float32).reshape(1, 4, 4, 1))
k = tf.ones((2, 2, 1, 1))
print(tf.nn.conv2d(x, k, strides=1, padding="VALID")[0, :, :, 0])
print(tf.nn.conv2d(x, k, strides=2, padding="SAME")[0, :, :, 0])
print(tf.nn.conv2d(x, tf.ones((3, 3, 1, 2)), strides=1, padding="SAME").shape)
print(tf.nn.conv1d(tf.ones((1, 5, 1)), tf.ones((3, 1, 1)), stride=1, padding="VALID")[0, :, 0])
print(tf.nn.depthwise_conv2d(x, tf.ones((2, 2, 1, 1)), strides=[1, 1, 1, 1], padding="VALID").shape)
