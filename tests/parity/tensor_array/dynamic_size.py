"""A dynamically sized TensorArray grows as it is written."""
import tensorflow as tf

ta = tf.TensorArray(tf.int32, size=0, dynamic_size=True)
for i in range(4):
    ta = ta.write(i, i * i)
print(ta.size())
print(ta.stack())
print(ta.element_shape)
