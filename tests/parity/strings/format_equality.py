"""strings.format and string equality."""
import tensorflow as tf

print(tf.strings.format("x = {}, y = {}", (tf.constant(1), tf.constant([1.5, 2.0]))))
a = tf.constant(["cat", "dog"])
print(a == "cat")
print(tf.equal(a, tf.constant(["cat", "cow"])))
print(tf.constant("x").dtype, tf.constant(["a"]).shape)
print(tf.reduce_any(a == "dog"))
