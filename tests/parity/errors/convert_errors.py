"""Converting unsupported Python objects to tensors."""
import tensorflow as tf

try:
    tf.constant({"a": 1})
except Exception as e:
    print(type(e).__name__)
try:
    tf.convert_to_tensor(object())
except Exception as e:
    print(type(e).__name__)
try:
    tf.constant(1.5, dtype=tf.int32)
except Exception as e:
    print(type(e).__name__, isinstance(e, (TypeError, ValueError)))
try:
    tf.constant(-1, dtype=tf.uint8)
except Exception as e:
    print(type(e).__name__)
