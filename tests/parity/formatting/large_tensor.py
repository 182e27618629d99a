"""Printing a large tensor summarizes it with ellipses."""
import numpy as np
import tensorflow as tf

print(tf.range(2000))
print(tf.constant(np.arange(400).reshape(20, 20)))
