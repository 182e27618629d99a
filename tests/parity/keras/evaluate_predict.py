"""evaluate and predict with metrics on a model with fixed weights."""
import numpy as np
import tensorflow as tf

model = tf.keras.Sequential([tf.keras.Input((2,)), tf.keras.layers.Dense(1, activation="sigmoid",
                                                                           kernel_initializer="ones")])
model.compile(optimizer="sgd", loss="binary_crossentropy", metrics=["accuracy"])
x = np.array([[1.0, 1.0], [-1.0, -1.0], [0.5, -2.0], [2.0, 0.0]], dtype=np.float32)
y = np.array([1.0, 0.0, 1.0, 1.0], dtype=np.float32)
result = model.evaluate(x, y, verbose=0)
print([round(v, 4) for v in result])
print(model.evaluate(x, y, verbose=0, return_dict=True).keys())
pred = model.predict(x, verbose=0)
print(pred.shape, pred.dtype, np.round(pred[:, 0], 4).tolist())
print(model.metrics_names)
