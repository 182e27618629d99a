"""tf.cond runs one branch eagerly."""
import tensorflow as tf

x = tf.constant(2.0)
print(tf.cond(x > 1.0, lambda: x * 10, lambda: x - 10))
print(tf.cond(tf.constant(False), lambda: tf.constant(1), lambda: tf.constant(0)))
print(tf.cond(x < 0, true_fn=lambda: (x, x), false_fn=lambda: (x + 1, x + 2)))
