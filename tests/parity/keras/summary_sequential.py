"""model.summary() of Sequential models: built from an Input, unbuilt, built by fit, and after fit."""
import numpy as np
import tensorflow as tf

model = tf.keras.Sequential([
    tf.keras.Input((28, 28)),
    tf.keras.layers.Flatten(),
    tf.keras.layers.Dense(128, activation="relu"),
    tf.keras.layers.Dropout(0.2),
    tf.keras.layers.Dense(10),
])
model.summary()

lazy = tf.keras.Sequential([
    tf.keras.layers.Dense(16, activation="relu", kernel_initializer="ones"),
    tf.keras.layers.BatchNormalization(),
    tf.keras.layers.Dense(1, kernel_initializer="ones"),
])
lazy.summary()
lazy.compile(optimizer="adam", loss="mse")
lazy.fit(np.ones((8, 3), np.float32), np.ones((8, 1), np.float32), batch_size=4, epochs=1, verbose=0)
lazy.summary()
lazy.summary(show_trainable=True)
print(lazy.input_shape, lazy.output_shape)
print(lazy.layers)
