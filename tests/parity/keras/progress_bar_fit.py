"""fit's default verbose=1: Keras 3's progress bar, an Epoch line per epoch when more than one."""
import numpy as np
import tensorflow as tf

x = np.arange(40, dtype="float32").reshape(10, 4) / 40
y = (np.arange(10) % 2).astype("float32")
model = tf.keras.Sequential([tf.keras.Input((4,)),
                             tf.keras.layers.Dense(1, activation="sigmoid", kernel_initializer="ones")])
model.compile(optimizer="sgd", loss="binary_crossentropy", metrics=["accuracy"])
print("three epochs")
history = model.fit(x, y, epochs=3, batch_size=4, shuffle=False)
print("one epoch")
history = model.fit(x, y, batch_size=4, shuffle=False)
print("with validation")
history = model.fit(x, y, epochs=2, batch_size=4, shuffle=False, validation_data=(x[:4], y[:4]))
print(sorted(history.history))
