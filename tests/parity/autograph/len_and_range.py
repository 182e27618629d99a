"""len and range of tensors inside a function."""
import tensorflow as tf


@tf.function
def f(x):
    n = len(x)
    s = tf.constant(0)
    for i in range(n):
        s += x[i]
    return s, n

print(f(tf.constant([1, 2, 3])))

@tf.function
def g(x):
    total = 0
    for i in tf.range(tf.shape(x)[0]):
        total += x[i]
    return total

print(g(tf.constant([4, 5, 6])))
