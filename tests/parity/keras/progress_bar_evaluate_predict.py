"""evaluate and predict with the default verbose: Keras 3's bar, metrics for evaluate, none for predict."""
import numpy as np
import tensorflow as tf

x = np.arange(40, dtype="float32").reshape(10, 4) / 40
y = (np.arange(10) % 2).astype("float32")
model = tf.keras.Sequential([tf.keras.Input((4,)),
                             tf.keras.layers.Dense(1, activation="sigmoid", kernel_initializer="ones")])
model.compile(optimizer="adam", loss="binary_crossentropy", metrics=["accuracy", "mae"])
print("evaluate")
print(model.evaluate(x, y))
print(model.evaluate(x, y, batch_size=3, return_dict=True))
print("predict")
print(model.predict(x).shape)
print(model.predict(x, batch_size=3).shape)
print("verbose=2")
model.evaluate(x, y, verbose=2)
model.predict(x, verbose=2)
