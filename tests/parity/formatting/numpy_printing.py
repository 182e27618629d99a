"""numpy() of various dtypes and np.set_printoptions effect."""
import numpy as np
import tensorflow as tf

print(tf.constant([1.0, 2.0, 3.0]).numpy())
print(tf.constant([1 / 3, 2 / 3]).numpy())
print(tf.constant([1 / 3], dtype=tf.float64).numpy())
np.set_printoptions(precision=2)
print(tf.constant([1 / 3, 2 / 3]))
print(tf.constant([1e-8, 1.0]))
