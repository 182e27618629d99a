"""while_loop with a counter, eagerly and in a function."""
import tensorflow as tf

i = tf.constant(0)
result = tf.while_loop(lambda i: tf.less(i, 10), lambda i: (tf.add(i, 1),), [i])
print(result)
print(type(result).__name__)

@tf.function
def f(n):
    return tf.while_loop(lambda i, s: i < n, lambda i, s: (i + 1, s + i), (0, 0))

print(f(tf.constant(5)))
