"""map_fn over the first dimension, with fn_output_signature."""
import tensorflow as tf

print(tf.map_fn(lambda x: x * x, tf.constant([1, 2, 3])))
print(tf.map_fn(lambda x: tf.reduce_sum(x), tf.constant([[1, 2], [3, 4]])))
print(tf.map_fn(lambda x: tf.cast(x, tf.float32) / 2, tf.constant([1, 2]), fn_output_signature=tf.float32))
print(tf.map_fn(lambda x: tf.strings.as_string(x), tf.constant([1, 2]), fn_output_signature=tf.string))
