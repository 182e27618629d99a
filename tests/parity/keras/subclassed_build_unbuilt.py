"""build() on a subclassed model: Keras 3 marks it built but builds no layer until the first call."""
import warnings

import numpy as np
import tensorflow as tf


class TwoDense(tf.keras.Model):
    def __init__(self):
        super().__init__()
        self.hidden = tf.keras.layers.Dense(3, kernel_initializer="ones")
        self.out = tf.keras.layers.Dense(1, kernel_initializer="ones")

    def call(self, inputs):
        return self.out(self.hidden(inputs))


model = TwoDense()
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    model.build((None, 4))
print([w.category.__name__ for w in caught])
print(model.built, model.hidden.built, model.out.built, len(model.weights), model.count_params())
model.summary()
print(model(np.ones((2, 4), "float32")).numpy().tolist())
print(len(model.weights), model.count_params())
model.summary()
