"""An out-of-range gather index on CPU raises InvalidArgumentError."""
import tensorflow as tf

try:
    tf.gather(tf.constant([1, 2, 3]), [5])
except Exception as e:
    print(type(e).__name__, isinstance(e, tf.errors.InvalidArgumentError))
try:
    tf.constant([1, 2, 3])[5]
except Exception as e:
    print(type(e).__name__, isinstance(e, tf.errors.InvalidArgumentError), isinstance(e, ValueError))
