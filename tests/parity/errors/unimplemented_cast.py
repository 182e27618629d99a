"""Casting a string to a number is not supported."""
import tensorflow as tf

try:
    tf.cast(tf.constant("1.5"), tf.float32)
except Exception as e:
    print(type(e).__name__, isinstance(e, tf.errors.OpError))
print(tf.strings.to_number(tf.constant("1.5")))
