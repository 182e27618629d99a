import tensorflow as tf


def body(i, x):
    return i + 1, tf.concat([x, [1.0]], 0)


@tf.function
def no_invariant(n):
    i, x = tf.constant(0), tf.zeros([1])
    try:
        tf.while_loop(lambda i, x: i < n, body, [i, x])
    except ValueError as e:
        print("no invariant:", type(e).__name__)
    return x


@tf.function
def wrong_invariant(n):
    i, x = tf.constant(0), tf.zeros([1])
    try:
        tf.while_loop(lambda i, x: i < n, body, [i, x], shape_invariants=[i.shape, tf.TensorShape([2])])
    except ValueError as e:
        print("wrong invariant:", type(e).__name__)
    return x


print(no_invariant(tf.constant(3)))
print(wrong_invariant(tf.constant(3)))


@tf.function
def for_loop(n):
    x = tf.zeros([1])
    for _ in tf.range(n):
        x = tf.concat([x, [1.0]], 0)
    return x


try:
    for_loop(tf.constant(2))
except ValueError as e:
    print("for loop:", type(e).__name__)
