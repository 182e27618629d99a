"""one_hot, argmax, argsort, sort, top_k, unique."""
import tensorflow as tf

print(tf.one_hot([0, 2, 1], depth=3))
print(tf.one_hot([0, 2], depth=3, on_value=5, off_value=-1))
x = tf.constant([3, 1, 4, 1, 5, 9, 2, 6])
print(tf.argmax(x), tf.argmin(x))
print(tf.argsort(x))
print(tf.sort(x, direction="DESCENDING"))
vals, idx = tf.math.top_k(x, k=3)
print(vals, idx)
y, i = tf.unique(x)
print(y, i)
