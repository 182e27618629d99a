"""keras.metrics Precision/Recall with top_k (alone, with class_id, with a threshold) and its config."""
import numpy as np
import tensorflow as tf

y = np.array([[0, 0, 1, 1], [1, 0, 0, 1], [0, 1, 0, 0]], np.float32)
p = np.array([[0.1, 0.5, 0.3, 0.9], [0.6, 0.2, 0.7, 0.1], [0.3, 0.4, 0.2, 0.8]], np.float32)
for k in (1, 2, 3):
    for cls in (tf.keras.metrics.Precision, tf.keras.metrics.Recall):
        print(cls.__name__, k, float(cls(top_k=k)(y, p)), float(cls(top_k=k, class_id=3)(y, p)),
              float(cls(top_k=k, thresholds=0.35)(y, p)))
print(sorted(tf.keras.metrics.Precision(top_k=2).get_config().items()))
