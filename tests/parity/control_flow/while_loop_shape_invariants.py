"""A loop variable that grows needs a shape invariant."""
import tensorflow as tf


@tf.function
def grow(n):
    x = tf.zeros([0])
    i = tf.constant(0)
    i, x = tf.while_loop(lambda i, x: i < n,
                         lambda i, x: (i + 1, tf.concat([x, [tf.cast(i, tf.float32)]], 0)),
                         [i, x], shape_invariants=[i.shape, tf.TensorShape([None])])
    return x

print(grow(tf.constant(4)))
