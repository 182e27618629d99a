"""max_pool2d and avg_pool2d."""
import numpy as np
import tensorflow as tf

x = tf.constant(np.arange(16.0, dtype=np.float32).reshape(1, 4, 4, 1))
print(tf.nn.max_pool2d(x, ksize=2, strides=2, padding="VALID")[0, :, :, 0])
print(tf.nn.avg_pool2d(x, ksize=2, strides=2, padding="VALID")[0, :, :, 0])
print(tf.nn.max_pool2d(x, ksize=3, strides=2, padding="SAME").shape)
print(tf.nn.avg_pool2d(x, ksize=3, strides=1, padding="SAME")[0, 0, :, 0])
print(tf.nn.max_pool1d(tf.reshape(tf.range(6.0), (1, 6, 1)), 2, 2, "VALID")[0, :, 0])
