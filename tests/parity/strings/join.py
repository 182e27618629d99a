"""strings.join and reduce_join."""
import tensorflow as tf

print(tf.strings.join(["a", "b", "c"]))
print(tf.strings.join([tf.constant(["x", "y"]), tf.constant(["1", "2"])], separator="-"))
print(tf.strings.reduce_join(["a", "b", "c"]))
print(tf.strings.reduce_join([["a", "b"], ["c", "d"]], axis=1, separator=","))
print(tf.constant("ab") + tf.constant("cd"))
