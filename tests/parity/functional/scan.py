"""scan for cumulative sums and products."""
import tensorflow as tf

print(tf.scan(lambda acc, x: acc + x, tf.constant([1, 2, 3, 4])))
print(tf.scan(lambda acc, x: acc * x, tf.constant([1.0, 2.0, 3.0]), initializer=tf.constant(2.0)))
fib = tf.scan(lambda a, _: (a[1], a[0] + a[1]), tf.range(6), initializer=(0, 1))
print(fib)
print(tf.scan(lambda acc, x: acc + x, tf.constant([1, 2, 3]), reverse=True))
