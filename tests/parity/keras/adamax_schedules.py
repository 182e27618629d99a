"""Adamax and the polynomial, inverse-time and restarting cosine schedules."""
import numpy as np
import tensorflow as tf

S = tf.keras.optimizers.schedules
for schedule in [S.PolynomialDecay(1.0, 10, 0.1, power=2.0), S.PolynomialDecay(1.0, 10, 0.1, cycle=True),
                 S.InverseTimeDecay(1.0, 10, 0.5, staircase=True), S.CosineDecayRestarts(1.0, 10),
                 S.CosineDecayRestarts(0.5, 4, t_mul=3.0, m_mul=0.8)]:
    steps = (0, 1, 4, 5, 9, 10, 11, 25, 31, 60)
    print(type(schedule).__name__, [round(float(schedule(k)), 4) for k in steps],
          schedule.get_config()["name"])
v = tf.Variable([1.0, -2.0])
optimizer = tf.keras.optimizers.Adamax(0.1, beta_2=0.9)
for g in ([1.0, 0.5], [-0.3, 2.0], [0.1, 0.1]):
    optimizer.apply_gradients([(tf.constant(g), v)])
print(np.round(v.numpy(), 5).tolist(), int(optimizer.iterations))
v = tf.Variable([1.0])
sgd = tf.keras.optimizers.SGD(S.PolynomialDecay(1.0, 2, 0.0))
for _ in range(3):
    sgd.apply_gradients([(tf.constant([1.0]), v)])
print(v.numpy().tolist())
