"""Gradients at kinks: abs, relu, maximum/minimum ties, clip bounds, reduce_max ties, sqrt at 0."""
import numpy as np
import tensorflow as tf

x = tf.Variable([-1.0, 0.0, 2.0, 2.0])
with tf.GradientTape(persistent=True) as tape:
    values = {
        "abs": tf.reduce_sum(tf.abs(x)),
        "relu": tf.reduce_sum(tf.nn.relu(x)),
        "maximum": tf.reduce_sum(tf.maximum(x, 0.0)),
        "minimum": tf.reduce_sum(tf.minimum(x, 2.0)),
        "clip": tf.reduce_sum(tf.clip_by_value(x, 0.0, 2.0)),
        "reduce_max": tf.reduce_max(x),
        "abs_times_x": tf.reduce_sum(tf.abs(x) * x),
        "sign": tf.reduce_sum(tf.sign(x) * x),
    }
for name, value in values.items():
    print(name, np.round(tape.gradient(value, x).numpy(), 5).tolist())
y = tf.Variable(0.0)
with tf.GradientTape() as outer:
    with tf.GradientTape() as inner:
        z = tf.abs(y) * y
    g = inner.gradient(z, y)
print("second", float(g), float(outer.gradient(g, y)))
z = tf.Variable([-1.5, 0.0, 0.5, 2.0])
with tf.GradientTape(persistent=True) as tape:
    results = {
        "selu": tf.reduce_sum(tf.nn.selu(z)),
        "elu": tf.reduce_sum(tf.nn.elu(z)),
        "xlogy": tf.reduce_sum(tf.math.xlogy(z, tf.abs(z))),
        "round": tf.reduce_sum(tf.round(z)),
        "floor_plus": tf.reduce_sum(tf.floor(z) + z),
        "floordiv": tf.reduce_sum(z // 2.0),
    }
for name, value in results.items():
    grad = tape.gradient(value, z)
    print(name, None if grad is None else np.round(grad.numpy(), 4).tolist())
