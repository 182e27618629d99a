"""debugging.assert_* and check_numerics raise InvalidArgumentError."""
import numpy as np
import tensorflow as tf

try:
    tf.debugging.assert_equal(tf.constant([1, 2]), tf.constant([1, 3]))
except Exception as e:
    print(type(e).__name__)
try:
    tf.debugging.check_numerics(tf.constant([1.0, np.nan]), "bad values")
except Exception as e:
    print(type(e).__name__)
try:
    tf.debugging.assert_positive(tf.constant([1, -1]))
except Exception as e:
    print(type(e).__name__)
try:
    tf.debugging.assert_shapes([(tf.ones((2, 3)), ("N", 4))])
except Exception as e:
    print(type(e).__name__, isinstance(e, ValueError))
print(tf.debugging.assert_near(tf.constant(1.0), tf.constant(1.0 + 1e-7)))
