"""A constant built from np.arange keeps NumPy's int64; a Python list becomes int32."""
import numpy as np
import tensorflow as tf

x = tf.constant(np.arange(0, 25))
print(x)
print(x.dtype, x.shape)
y = tf.constant([1, 2, 3])
print(y.dtype)
z = tf.constant([1.5, 2.5])
print(z.dtype)
w = tf.constant(np.array([1.5, 2.5]))
print(w.dtype)
print(tf.constant(3).shape, tf.constant(3).ndim)
