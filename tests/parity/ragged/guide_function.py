"""The Ragged tensors guide's tf.function section: RaggedTensors in and out of a function."""
import tensorflow as tf


@tf.function
def make_palindrome(x, axis):
    return tf.concat([x, tf.reverse(x, [axis])], axis)


print(make_palindrome(tf.constant([[1, 2], [3, 4], [5, 6]]), axis=1))
print(make_palindrome(tf.ragged.constant([[1, 2], [3], [4, 5, 6]]), axis=1))


@tf.function
def increment(x):
    return x + 1


rt = tf.ragged.constant([[1, 2], [3], [4, 5, 6]])
cf = increment.get_concrete_function(rt)
print(cf(rt))
print(increment(tf.ragged.constant([[10, 20], [30]])))
v = tf.Variable(2.0)


@tf.function
def scaled(x):
    return {"out": x * v, "rows": tf.reduce_sum(x * v, axis=1)}


x = tf.ragged.constant([[1.0, 2.0], [3.0]])
print(scaled(x))
v.assign(3.0)
print(scaled(x))
