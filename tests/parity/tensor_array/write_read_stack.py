"""TensorArray write, read, stack, size."""
import tensorflow as tf

ta = tf.TensorArray(tf.float32, size=3)
ta = ta.write(0, 1.0)
ta = ta.write(1, 2.0)
ta = ta.write(2, 3.0)
print(ta.read(1))
print(ta.stack())
print(ta.size())
print(ta.dtype)
