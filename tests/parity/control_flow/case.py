"""tf.case with predicates, default and exclusive."""
import tensorflow as tf

x = tf.constant(5)
print(tf.case([(x < 3, lambda: tf.constant(1)), (x < 7, lambda: tf.constant(2))],
              default=lambda: tf.constant(3)))
print(tf.case([(x > 100, lambda: tf.constant(1))], default=lambda: tf.constant(0)))
try:
    tf.case([(x > 1, lambda: tf.constant(1)), (x > 2, lambda: tf.constant(2))], exclusive=True)
except Exception as e:
    print(type(e).__name__)

@tf.function
def f(x):
    return tf.case([(tf.equal(x, 1), lambda: x * 10)], default=lambda: x)

print(f(tf.constant(1)), f(tf.constant(2)))
