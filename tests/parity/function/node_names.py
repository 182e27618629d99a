import tensorflow as tf


@tf.function
def f(x):
    outs = [tf.add(x, 1), x + 1, tf.multiply(x, 2), x * 2, tf.subtract(x, 1), x - 1, tf.divide(x, 2), x / 2,
            tf.pow(x, 2), x ** 2, tf.math.floordiv(x, 2), x // 2, tf.math.floormod(x, 2), x % 2,
            tf.negative(x), -x, tf.maximum(x, 1.0), tf.abs(x), abs(x), tf.less(x, 1), x < 1,
            tf.matmul(tf.reshape(x, [1, 2]), tf.reshape(x, [2, 1])),
            tf.reshape(x, [2, 1]) @ tf.reshape(x, [1, 2])]
    for o in outs:
        print(o.name, o.op.type)
    return x


f(tf.constant([1.0, 2.0]))
