"""Assigning a value of another dtype or shape to a Variable."""
import tensorflow as tf

v = tf.Variable(1.0)
try:
    v.assign(tf.constant(1, dtype=tf.int32))
except Exception as e:
    print(type(e).__name__, isinstance(e, ValueError), isinstance(e, TypeError))
w = tf.Variable([1.0, 2.0])
try:
    w.assign([1.0, 2.0, 3.0])
except Exception as e:
    print(type(e).__name__, isinstance(e, ValueError))
v.assign(2)
print(v.numpy())
