"""Learning-rate schedules."""
import tensorflow as tf

s = tf.keras.optimizers.schedules.ExponentialDecay(0.1, decay_steps=10, decay_rate=0.5)
print([round(float(s(step)), 6) for step in (0, 5, 10, 20)])
s = tf.keras.optimizers.schedules.ExponentialDecay(0.1, decay_steps=10, decay_rate=0.5, staircase=True)
print([round(float(s(step)), 6) for step in (0, 5, 10, 20)])
p = tf.keras.optimizers.schedules.PiecewiseConstantDecay([5, 10], [1.0, 0.5, 0.1])
print([round(float(p(step)), 6) for step in (0, 5, 6, 11)])
opt = tf.keras.optimizers.SGD(learning_rate=s)
print(round(float(opt.learning_rate), 6))
