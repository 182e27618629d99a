"""cumsum and cumprod, exclusive and reversed."""
import tensorflow as tf

x = tf.constant([1, 2, 3, 4])
print(tf.cumsum(x))
print(tf.cumsum(x, exclusive=True))
print(tf.cumsum(x, reverse=True))
print(tf.math.cumprod(x))
print(tf.math.cumprod(x, exclusive=True, reverse=True))
print(tf.cumsum(tf.reshape(tf.range(6), (2, 3)), axis=1))
print(tf.math.cumulative_logsumexp(tf.constant([0.0, 0.0, 0.0])))
