"""split of a scalar, substr, regex_replace."""
import tensorflow as tf

print(tf.strings.split(tf.constant("a b  c")))
print(tf.strings.split(tf.constant("a,b,c"), sep=","))
print(tf.strings.substr(tf.constant("TensorFlow"), 0, 6))
print(tf.strings.substr(tf.constant(["hello", "world"]), 1, 3))
print(tf.strings.regex_replace(tf.constant("a1b22c333"), "[0-9]+", "#"))
print(tf.strings.regex_full_match(tf.constant(["abc", "a1"]), "[a-z]+"))
