import tensorflow as tf


@tf.function
def grow(n):
    i = tf.constant(0)
    x = tf.zeros([1])
    i, x = tf.while_loop(lambda i, x: i < n,
                         lambda i, x: (i + 1, tf.concat([x, [tf.cast(i, tf.float32)]], 0)),
                         [i, x], shape_invariants=[i.shape, tf.TensorShape([None])])
    return x


print(grow(tf.constant(3)))
print(grow(tf.constant(1)))


def eager():
    i = tf.constant(0)
    x = tf.zeros([1])
    return tf.while_loop(lambda i, x: i < 3, lambda i, x: (i + 1, tf.concat([x, [1.0]], 0)),
                         [i, x], shape_invariants=[i.shape, tf.TensorShape([None])])


print(eager())
