"""Shapes that cannot hold the given values."""
import tensorflow as tf

try:
    tf.constant([1, 2, 3], shape=(2, 2))
except Exception as e:
    print(type(e).__name__, isinstance(e, (ValueError, TypeError)))
try:
    tf.ones((2, 3)) @ tf.ones((4, 2))
except Exception as e:
    print(type(e).__name__)
try:
    tf.reshape(tf.range(6), (4, -1))
except Exception as e:
    print(type(e).__name__)
try:
    tf.constant([[1, 2], [3]])
except Exception as e:
    print(type(e).__name__, isinstance(e, ValueError))
