"""Slicing, strided slices, ellipsis and newaxis."""
import numpy as np
import tensorflow as tf

x = tf.constant(np.arange(12).reshape(3, 4))
print(x[1])
print(x[1:, ::2])
print(x[..., 0])
print(x[:, tf.newaxis, 1].shape)
print(x[-1, -1].numpy())
print(x[::-1, 0])
print(x[0, 1:3].numpy().tolist())
i = tf.constant(2)
print(x[i].numpy())
