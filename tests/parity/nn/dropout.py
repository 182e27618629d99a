"""nn.dropout keeps the shape and scales kept values by 1/(1-rate) (values depend on the seed)."""
import tensorflow as tf

tf.random.set_seed(0)
x = tf.ones((100,))
y = tf.nn.dropout(x, rate=0.5)
print(y.shape, y.dtype)
kept = tf.boolean_mask(y, y > 0)
print(bool(tf.reduce_all(kept == 2.0)))
print(bool(tf.reduce_all((y == 0.0) | (y == 2.0))))
print(tf.nn.dropout(tf.ones((3,)), rate=0.0))
