"""map_fn over tuples of tensors."""
import tensorflow as tf

a = tf.constant([1, 2, 3])
b = tf.constant([10, 20, 30])
print(tf.map_fn(lambda t: t[0] + t[1], (a, b), fn_output_signature=tf.int32))
out = tf.map_fn(lambda t: (t[0] * 2, t[1] * 3), (a, b))
print(out)
