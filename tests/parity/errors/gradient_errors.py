"""Errors around GradientTape use."""
import tensorflow as tf

x = tf.Variable(1.0)
with tf.GradientTape() as tape:
    y = x * x
tape.gradient(y, x)
try:
    tape.gradient(y, x)
except Exception as e:
    print(type(e).__name__)
try:
    with tf.GradientTape() as tape:
        y = x * 2
        tape.gradient(y, x)
    print("inside ok")
except Exception as e:
    print(type(e).__name__)
with tf.GradientTape() as tape:
    y = x * 2
try:
    tape.gradient(y, 3.0)
except Exception as e:
    print(type(e).__name__)
