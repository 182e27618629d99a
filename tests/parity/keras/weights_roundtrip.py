"""get_weights and set_weights."""
import numpy as np
import tensorflow as tf

model = tf.keras.Sequential([tf.keras.Input((2,)), tf.keras.layers.Dense(2)])
w = [np.array([[1.0, 2.0], [3.0, 4.0]], dtype=np.float32), np.array([0.5, -0.5], dtype=np.float32)]
model.set_weights(w)
print([x.tolist() for x in model.get_weights()])
print(model(tf.constant([[1.0, 1.0]])))
print([v.shape for v in model.trainable_weights])
