"""Printing string and bool tensors."""
import tensorflow as tf

print(tf.constant("hello"))
print(tf.constant(["a", "bc"]))
print(repr(tf.constant(b"bytes")))
print(tf.constant("héllo"))
print(tf.constant("hello").numpy())
print(tf.constant([True, False]).numpy())
