"""vectorized_map gives the same values as map_fn."""
import tensorflow as tf

x = tf.reshape(tf.range(6.0), (3, 2))
print(tf.vectorized_map(lambda r: tf.reduce_sum(r * r), x))
print(tf.vectorized_map(lambda r: r[::-1], x))
