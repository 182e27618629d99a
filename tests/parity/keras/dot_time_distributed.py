"""Dot layers (axes, normalize) and TimeDistributed over Dense and Conv2D in a model."""
import numpy as np
import tensorflow as tf

L = tf.keras.layers
rng = np.random.default_rng(1)
a, b = rng.normal(size=(2, 3)).astype("float32"), rng.normal(size=(2, 3)).astype("float32")
s1, s2 = rng.normal(size=(2, 4, 3)).astype("float32"), rng.normal(size=(2, 5, 3)).astype("float32")
print(np.round(L.Dot(axes=1)([a, b]).numpy(), 4).tolist())
print(np.round(L.Dot(axes=1, normalize=True)([a, b]).numpy(), 4).tolist())
print(L.Dot(axes=(2, 2))([s1, s2]).shape, round(float(tf.reduce_sum(L.Dot(axes=(2, 2))([s1, s2]))), 3))
print(round(float(tf.reduce_sum(L.dot([s1, s1], axes=(1, 1)))), 3))
td = L.TimeDistributed(L.Dense(2, kernel_initializer="ones"))
print(td(s1).shape, np.round(td(s1).numpy()[0, :, 0], 4).tolist())
m = tf.keras.Sequential([tf.keras.Input((6, 8, 8, 1)), L.TimeDistributed(L.Conv2D(2, 3)),
                         L.TimeDistributed(L.Flatten()), L.LSTM(3)])
print([tuple(layer.output.shape) for layer in m.layers], m.count_params())
