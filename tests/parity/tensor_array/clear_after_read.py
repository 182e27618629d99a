"""A TensorArray with clear_after_read=False can be read twice."""
import tensorflow as tf

ta = tf.TensorArray(tf.float32, size=2, clear_after_read=False)
ta = ta.write(0, 5.0).write(1, 6.0)
print(ta.read(0), ta.read(0))
print(ta.stack())
ta = tf.TensorArray(tf.float32, size=1)
ta = ta.write(0, 1.0)
print(ta.read(0))
