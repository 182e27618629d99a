"""Tensors and NumPy arrays mix: ufuncs, np.asarray, conversion of Python values."""
import numpy as np
import tensorflow as tf

t = tf.constant([[1.0, 2.0], [3.0, 4.0]])
print(np.add(t, 1))
print(type(np.add(t, 1)).__name__)
print(np.asarray(t).dtype)
print(t.numpy().sum())
print(tf.convert_to_tensor([1.0, 2.0]).dtype)
print(tf.convert_to_tensor(np.float64(2.0)).dtype)
print(tf.convert_to_tensor(5).dtype)
print(tf.add(np.ones(2), np.ones(2)).dtype)
print(tf.is_tensor(t), tf.is_tensor(np.ones(2)))
print(np.square(t).dtype)
