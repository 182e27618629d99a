"""switch_case picks a branch by index; out-of-range runs the default (the last branch)."""
import tensorflow as tf

branches = [lambda: tf.constant(10), lambda: tf.constant(20), lambda: tf.constant(30)]
print(tf.switch_case(tf.constant(1), branches))
print(tf.switch_case(tf.constant(7), branches))
print(tf.switch_case(tf.constant(0), branches, default=lambda: tf.constant(-1)))
try:
    tf.switch_case(tf.constant(5), {0: lambda: tf.constant(1), 3: lambda: tf.constant(3)})
except Exception as e:
    print(type(e).__name__)
print(tf.switch_case(tf.constant(1), {0: lambda: tf.constant(1), 1: lambda: tf.constant(3)}))

@tf.function
def f(i):
    return tf.switch_case(i, branches)

print(f(tf.constant(2)), f(tf.constant(-1)))
