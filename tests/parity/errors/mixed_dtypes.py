"""Adding an int32 and a float32 tensor raises InvalidArgumentError."""
import tensorflow as tf

try:
    tf.add(tf.constant(1), tf.constant(1.0))
except Exception as e:
    print(type(e).__name__)
    print(isinstance(e, tf.errors.InvalidArgumentError), isinstance(e, tf.errors.OpError))
    print(isinstance(e, ValueError), isinstance(e, TypeError))
try:
    tf.constant([1, 2]) + tf.constant([1.5, 2.5])
except Exception as e:
    print(type(e).__name__)
