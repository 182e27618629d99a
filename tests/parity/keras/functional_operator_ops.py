"""Python operators on KerasTensors become Keras 3 ops: named add, get_item, ..., not in model.layers."""
import numpy as np
import tensorflow as tf

x = tf.keras.Input((4,), name="x")
first = x[:, 0:2]
scaled = -(2 * (x + 1)) / 3 - x
joined = tf.keras.layers.Concatenate()([first, scaled])
out = tf.keras.layers.Dense(1, kernel_initializer="ones")(joined)
model = tf.keras.Model(x, out)
print([layer.name for layer in model.layers])
model.summary()
print(model.predict(np.ones((2, 4), "float32"), verbose=0).tolist())
