"""A non-trainable Variable is not watched by a tape."""
import tensorflow as tf

a = tf.Variable(2.0)
b = tf.Variable(3.0, trainable=False)
with tf.GradientTape() as tape:
    y = a * b
ga, gb = tape.gradient(y, [a, b])
print(ga, gb)
print(a.trainable, b.trainable)
with tf.GradientTape() as tape:
    tape.watch(b)
    y = a * b
print(tape.gradient(y, b))
