"""keras.metrics.AUC options: ROC/PR/PRGAIN curves with every summation method, multi_label (with
num_labels and label_weights), label_weights on flattened labels, from_logits, explicit thresholds."""
import numpy as np
import tensorflow as tf

rng = np.random.default_rng(0)
y = (rng.random((60, 3)) > 0.5).astype(np.float32)
p = np.clip(0.4 * y + 0.6 * rng.random((60, 3)), 0, 1).astype(np.float32)
w = rng.random(60).astype(np.float32)
for curve in ("ROC", "PR", "PRGAIN"):
    for method in ("interpolation", "minoring", "majoring"):
        m = tf.keras.metrics.AUC(num_thresholds=50, curve=curve, summation_method=method)
        m.update_state(y[:, 0], p[:, 0], sample_weight=w)
        print(curve, method, round(float(m.result()), 6))
m = tf.keras.metrics.AUC(multi_label=True)
m.update_state(y, p)
print("multi", round(float(m.result()), 6), m.true_positives.shape)
m = tf.keras.metrics.AUC(multi_label=True, num_labels=3, label_weights=[1.0, 2.0, 0.5], curve="PR")
m.update_state(y, p, sample_weight=w)
print("multi weighted", round(float(m.result()), 6))
m = tf.keras.metrics.AUC(label_weights=[1.0, 2.0, 0.5])
m.update_state(y, p)
print("label weights", round(float(m.result()), 6))
m = tf.keras.metrics.AUC(from_logits=True)
m.update_state(y[:, 1], (p[:, 1] - 0.5) * 8)
print("logits", round(float(m.result()), 6))
m = tf.keras.metrics.AUC(thresholds=[0.7, 0.2, 0.5])
m.update_state(y[:, 2], p[:, 2])
print("thresholds", round(float(m.result()), 6), m.num_thresholds)
print(sorted(m.get_config().items()))
model = tf.keras.Sequential([tf.keras.Input((3,)),
                             tf.keras.layers.Dense(3, activation="sigmoid", kernel_initializer="ones")])
model.compile("sgd", "binary_crossentropy", metrics=[tf.keras.metrics.AUC(multi_label=True)])
print(round(model.evaluate(p, y, verbose=0)[1], 6))
try:
    tf.keras.metrics.AUC(curve="XX")
except ValueError:
    print("ValueError")
