"""as_string and to_number."""
import tensorflow as tf

print(tf.strings.as_string(tf.constant([1, 22, 333])))
print(tf.strings.as_string(tf.constant([1.5, 2.25])))
print(tf.strings.as_string(tf.constant([3.14159]), precision=2))
print(tf.strings.to_number(tf.constant(["1.5", "2"])))
print(tf.strings.to_number(tf.constant(["7", "8"]), out_type=tf.int32))
print(tf.strings.as_string(tf.constant(True)))
