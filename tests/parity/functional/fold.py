"""foldl and foldr."""
import tensorflow as tf

x = tf.constant([1, 2, 3, 4])
print(tf.foldl(lambda a, v: a + v, x))
print(tf.foldl(lambda a, v: a * 10 + v, x, initializer=0))
print(tf.foldr(lambda a, v: a * 10 + v, x, initializer=0))
