"""Dataset.range with a tensor bound inside a tf.function (TF builds the dataset at run time)."""
import tensorflow as tf

D = tf.data.Dataset


@tf.function
def squares(n):
    return D.range(n).map(lambda x: x * x).reduce(tf.constant(0, tf.int64), lambda s, x: s + x)


print(squares(4), squares(5))
print(squares(tf.constant(4, tf.int64)), squares(tf.constant(5, tf.int64)))
