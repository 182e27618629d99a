"""length, upper, lower, strip."""
import tensorflow as tf

s = tf.constant(["Hello", "TensorFlow", ""])
print(tf.strings.length(s))
print(tf.strings.upper(s))
print(tf.strings.lower(s))
print(tf.strings.strip(tf.constant("  padded  ")))
print(tf.strings.length(tf.constant("héllo")), tf.strings.length(tf.constant("héllo"), unit="UTF8_CHAR"))
