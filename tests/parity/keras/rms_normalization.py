"""Keras 3's RMSNormalization: one and several axes, epsilon, mixed precision, config, fit."""
import numpy as np
import tensorflow as tf

keras = tf.keras
x = np.random.RandomState(0).randn(2, 3, 4).astype("float32")
layer = keras.layers.RMSNormalization()
print(layer.get_config()["axis"], layer.get_config()["epsilon"])
print(np.round(layer(x).numpy(), 5))
print(layer.get_config()["axis"], layer.scale.shape)
several = keras.layers.RMSNormalization(axis=[2, 1], epsilon=0.1)
print(np.round(several(x).numpy(), 5), several.scale.shape, several.get_config()["axis"])
mixed = keras.layers.RMSNormalization(dtype="mixed_float16")
out = mixed(x)
print(out.dtype, np.round(out.numpy().astype("float32"), 2))
inputs = keras.Input((3, 4))
model = keras.Model(inputs, keras.layers.RMSNormalization()(inputs))
print(model.output_shape)
model.compile("sgd", "mse")
model.fit(x, x * 2, epochs=2, verbose=0)
print(np.round(model.layers[-1].scale.numpy(), 5))
try:
    keras.layers.RMSNormalization(axis=5)(x)
except IndexError:
    print("IndexError")
