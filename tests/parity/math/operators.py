"""Python operators on tensors."""
import tensorflow as tf

x = tf.constant([1, 2, 3])
y = tf.constant([2.0, 4.0])
print(x ** 2, -x, abs(-x))
print(x // 2, x % 2)
print(y / 2, 1 / y)
print(2 ** y)
print(x & 1, x | 4, x ^ 1)
print(~tf.constant([True, False]))
print(tf.constant([True, False]) & tf.constant([True, True]))
print(x < 2, x >= 2)
print(x[0] + 1)
