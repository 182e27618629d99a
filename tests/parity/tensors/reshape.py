"""Reshape with -1, the size-mismatch error and the reshaped values."""
import numpy as np
import tensorflow as tf

x = tf.constant(np.arange(0, 24))
print(tf.reshape(x, (4, 6)))
print(tf.reshape(x, [2, -1, 3]).shape)
print(tf.reshape(x, (2, 3, 4))[1, 2].numpy())
try:
    tf.reshape(x, (5, 5))
except Exception as e:
    print("error:", type(e).__name__, isinstance(e, tf.errors.InvalidArgumentError))
