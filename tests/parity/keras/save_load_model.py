"""Model.save to .keras and load_model give the same predictions."""
import numpy as np
import tensorflow as tf

model = tf.keras.Sequential([tf.keras.Input((3,)), tf.keras.layers.Dense(2, kernel_initializer="ones",
                                                                           bias_initializer="ones")])
model.compile(optimizer="adam", loss="mse")
model.save("model.keras")
loaded = tf.keras.models.load_model("model.keras")
x = np.ones((1, 3), dtype=np.float32)
print(loaded.predict(x, verbose=0).tolist())
print(type(loaded).__name__, len(loaded.layers))
print(loaded.optimizer.__class__.__name__)
