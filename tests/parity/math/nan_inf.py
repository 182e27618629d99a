"""is_nan, is_inf, is_finite, count_nonzero and NaNs in reductions."""
import numpy as np
import tensorflow as tf

x = tf.constant([1.0, np.nan, np.inf, -np.inf, 0.0])
print(tf.math.is_nan(x))
print(tf.math.is_inf(x))
print(tf.math.is_finite(x))
print(tf.math.count_nonzero(x))
print(tf.math.count_nonzero(tf.constant([[0, 1], [2, 0]]), axis=0))
print(tf.reduce_sum(x[:3]))
print(tf.constant(0.0) / tf.constant(0.0))
print(tf.math.reduce_max(tf.constant([1.0, np.nan])).numpy())
