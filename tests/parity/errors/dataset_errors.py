"""Errors from Dataset construction and iteration."""
import tensorflow as tf

try:
    tf.data.Dataset.from_tensor_slices((tf.ones(3), tf.ones(4)))
except Exception as e:
    print("slices", type(e).__name__, isinstance(e, ValueError))
try:
    list(tf.data.Dataset.range(3).batch(0))
except Exception as e:
    print("batch0", type(e).__name__)
try:
    list(tf.data.Dataset.range(3).filter(lambda x: x))
except Exception as e:
    print("filter", type(e).__name__, isinstance(e, (ValueError, TypeError)))
it = iter(tf.data.Dataset.range(1))
next(it)
try:
    next(it)
except StopIteration:
    print("StopIteration")
