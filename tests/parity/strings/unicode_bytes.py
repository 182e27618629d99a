"""bytes_split, unicode_split and unicode_decode on scalars."""
import tensorflow as tf

print(tf.strings.bytes_split(tf.constant("abc")))
print(tf.strings.unicode_split(tf.constant("héllo"), "UTF-8"))
print(tf.strings.unicode_decode(tf.constant("héllo"), "UTF-8"))
print(tf.strings.unicode_encode(tf.constant([104, 105]), "UTF-8"))
