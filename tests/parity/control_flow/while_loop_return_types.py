"""What while_loop returns for a single tensor, a list and a tuple of loop variables."""
import tensorflow as tf

a = tf.while_loop(lambda x: x < 3, lambda x: (x + 1,), (tf.constant(0),))
b = tf.while_loop(lambda x: x < 3, lambda x: [x + 1], [tf.constant(0)])
c = tf.while_loop(lambda x, y: x < 3, lambda x, y: (x + 1, y * 2), [tf.constant(0), tf.constant(1)])
d = tf.while_loop(lambda x, y: x < 3, lambda x, y: (x + 1, y * 2), (tf.constant(0), tf.constant(1)))
for r in (a, b, c, d):
    print(type(r).__name__, r)
