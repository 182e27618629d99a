"""stop_recording, reset, and the gradient of a Variable read twice."""
import tensorflow as tf

x = tf.Variable(3.0)
with tf.GradientTape() as tape:
    y = x * x
    with tape.stop_recording():
        z = x * x * x
    w = y + z
print(tape.gradient(w, x))
with tf.GradientTape() as tape:
    y = x * 2
    tape.reset()
    y = x * 5
print(tape.gradient(y, x))
