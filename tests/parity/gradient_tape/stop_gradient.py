"""stop_gradient and watch_accessed_variables=False."""
import tensorflow as tf

x = tf.Variable(2.0)
with tf.GradientTape() as tape:
    y = x * tf.stop_gradient(x)
print(tape.gradient(y, x))
with tf.GradientTape(watch_accessed_variables=False) as tape:
    y = x * x
print(tape.gradient(y, x))
with tf.GradientTape(watch_accessed_variables=False) as tape:
    tape.watch(x)
    y = x * x
print(tape.gradient(y, x))
print([v.numpy() for v in tape.watched_variables()])
