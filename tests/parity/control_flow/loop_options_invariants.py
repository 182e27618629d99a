import tensorflow as tf


@tf.function
def doubling(n):
    x = tf.ones([1, 2])
    i = 0
    while i < n:
        tf.autograph.experimental.set_loop_options(shape_invariants=[(x, tf.TensorShape([None, 2]))])
        x = tf.concat([x, x], 0)
        i += 1
    return tf.shape(x), tf.reduce_sum(x)


print(doubling(tf.constant(2)))
print(doubling(tf.constant(3)))


@tf.function
def squares(n):
    out = tf.zeros([0])
    for i in tf.range(n):
        tf.autograph.experimental.set_loop_options(shape_invariants=[(out, tf.TensorShape([None]))])
        out = tf.concat([out, [tf.cast(i * i, tf.float32)]], 0)
    return out


print(squares(tf.constant(4)))
