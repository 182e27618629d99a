"""Incompatible shapes raise InvalidArgumentError."""
import tensorflow as tf

try:
    tf.ones((2, 3)) + tf.ones((4,))
except Exception as e:
    print(type(e).__name__, isinstance(e, tf.errors.InvalidArgumentError))
try:
    tf.matmul(tf.ones((2, 3)), tf.ones((2, 3)))
except Exception as e:
    print(type(e).__name__, isinstance(e, tf.errors.InvalidArgumentError))
try:
    tf.concat([tf.ones((2, 3)), tf.ones((2, 4))], axis=0)
except Exception as e:
    print(type(e).__name__, isinstance(e, tf.errors.InvalidArgumentError))
