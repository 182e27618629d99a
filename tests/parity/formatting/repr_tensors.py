"""repr of tensors, alone and inside containers."""
import tensorflow as tf

print(repr(tf.constant(3)))
print(repr(tf.constant([1.5, 2.5])))
print(repr(tf.constant([[1, 2], [3, 4]])))
print([tf.constant(1), tf.constant(2.0)])
print((tf.constant("a"),))
print({"k": tf.constant([True])})
