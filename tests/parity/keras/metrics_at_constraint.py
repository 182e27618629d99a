"""keras.metrics SensitivityAtSpecificity, SpecificityAtSensitivity, PrecisionAtRecall,
RecallAtPrecision: thresholds, weights, class_id, configs, a bad argument, in evaluate."""
import numpy as np
import tensorflow as tf

rng = np.random.default_rng(0)
y = (rng.random(200) > 0.6).astype(np.float32)
p = np.clip(y * 0.3 + rng.random(200) * 0.7, 0, 1).astype(np.float32)
w = rng.random(200).astype(np.float32)
for cls, arg in [(tf.keras.metrics.SensitivityAtSpecificity, 0.5),
                 (tf.keras.metrics.SpecificityAtSensitivity, 0.8),
                 (tf.keras.metrics.PrecisionAtRecall, 0.7), (tf.keras.metrics.RecallAtPrecision, 0.6)]:
    for n in (200, 7, 1):
        m = cls(arg, num_thresholds=n)
        m.update_state(y[:100], p[:100])
        m.update_state(y[100:], p[100:], sample_weight=w[100:])
        print(cls.__name__, n, round(float(m.result()), 6))
    print(sorted(m.get_config().items()))
m = tf.keras.metrics.PrecisionAtRecall(0.5, class_id=1)
m.update_state(np.eye(3)[[0, 1, 1, 2]],
               np.array([[0.8, 0.1, 0.1], [0.2, 0.7, 0.1], [0.3, 0.3, 0.4], [0.1, 0.6, 0.3]]))
print(round(float(m.result()), 6), m.name)
try:
    tf.keras.metrics.RecallAtPrecision(1.5)
except ValueError as e:
    print("ValueError", e)
model = tf.keras.Sequential([tf.keras.Input((2,)),
                             tf.keras.layers.Dense(1, activation="sigmoid", kernel_initializer="ones")])
model.compile("sgd", "binary_crossentropy", metrics=[tf.keras.metrics.SensitivityAtSpecificity(0.5)])
x = np.array([[1., 0.], [0., -1.], [2., 2.], [-1., -1.]])
print(sorted(model.evaluate(x, np.array([1., 0., 1., 0.]), verbose=0, return_dict=True)))
