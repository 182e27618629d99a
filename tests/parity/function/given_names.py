import tensorflow as tf


@tf.function
def f(x):
    e = tf.reduce_sum(x, name="total")
    g = tf.add(x, 1, name="plus")
    g2 = tf.add(x, 2, name="plus")
    m = tf.matmul(tf.reshape(x, [1, -1]), tf.reshape(x, [-1, 1]), name="dot")
    c = tf.cast(x, tf.int32, name="to_int")
    s = tf.sqrt(x, name="root")
    mx = tf.reduce_max(x, name="biggest")
    with tf.name_scope("block"):
        n = tf.multiply(x, 2, name="double")
        k = n + 1
    print(e, g, g2, m, c, s, mx, n, k, sep="\n")
    return e


print(f(tf.constant([1.0, 2.0])))
