"""Inverting a singular matrix raises InvalidArgumentError."""
import tensorflow as tf

try:
    tf.linalg.inv(tf.constant([[1.0, 2.0], [2.0, 4.0]]))
except Exception as e:
    print(type(e).__name__, isinstance(e, tf.errors.InvalidArgumentError))
try:
    tf.linalg.cholesky(tf.constant([[1.0, 2.0], [2.0, 1.0]]))
except Exception as e:
    print(type(e).__name__)
