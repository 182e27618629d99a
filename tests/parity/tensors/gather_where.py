"""gather, gather_nd, boolean_mask, where."""
import tensorflow as tf

x = tf.constant([[10, 11, 12], [20, 21, 22], [30, 31, 32]])
print(tf.gather(x, [2, 0]))
print(tf.gather(x, [1], axis=1))
print(tf.gather_nd(x, [[0, 1], [2, 2]]))
print(tf.boolean_mask(x, [True, False, True]))
print(tf.boolean_mask(tf.constant([1, 2, 3, 4]), tf.constant([1, 2, 3, 4]) > 2))
print(tf.where(x > 20))
print(tf.where(x > 20, x, -1))
print(tf.where([True, False], 1.0, 0.0))
