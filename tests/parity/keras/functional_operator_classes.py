"""Each Python operator's Keras 3 op class, reflected operands included."""
import numpy as np
import tensorflow as tf

x = tf.keras.Input((4,), name="x")
outs = [x // 2, x ** 2, x @ np.ones((4, 4), "float32"), x % 3, abs(x), 1 - x, 2 / x, x[:, :1]]
model = tf.keras.Model(x, outs)
print(len(model.layers), type(model.layers[0]).__name__)
model.summary()
print([np.round(y, 4).tolist() for y in model.predict(np.full((1, 4), 2.0, "float32"), verbose=0)])
