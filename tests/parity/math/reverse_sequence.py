"""reverse_sequence along either axis order, its gradient, and bad lengths."""
import numpy as np
import tensorflow as tf

x = np.arange(24).reshape(2, 3, 4)
print(tf.reverse_sequence(x, [1, 3, 0, 2], seq_axis=1, batch_axis=2).numpy().tolist())
print(tf.reverse_sequence(x, [2, 3], seq_axis=2).numpy().tolist())
v = tf.Variable([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
with tf.GradientTape() as tape:
    reversed_rows = tf.reverse_sequence(v, tf.constant([2, 1], tf.int64), seq_axis=1)
    y = tf.reduce_sum(reversed_rows * [[1.0, 10.0, 100.0]])
print(tape.gradient(y, v).numpy().tolist())
try:
    tf.reverse_sequence(tf.ones([2, 3]), [4, 1], seq_axis=1)
except tf.errors.InvalidArgumentError:
    print("InvalidArgumentError")
