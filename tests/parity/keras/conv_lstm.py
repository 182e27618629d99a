"""Keras 3's ConvLSTM1D/2D/3D: sequences and states, strides, dilation, going
backwards, no bias, the forget-gate bias, configs, a symbolic model and fit."""
import numpy as np
import tensorflow as tf

keras = tf.keras
layers = keras.layers


def make(cls, *args, **kwargs):
    return cls(*args, kernel_initializer=keras.initializers.GlorotUniform(seed=1),
               recurrent_initializer=keras.initializers.Orthogonal(seed=2), **kwargs)


x2 = np.random.RandomState(0).randn(2, 4, 5, 6, 3).astype("float32")
layer = make(layers.ConvLSTM2D, 4, 3, padding="same", return_sequences=True, return_state=True)
outputs, h, c = layer(x2)
print(outputs.shape, h.shape, c.shape, [tuple(w.shape) for w in layer.weights])
print(np.round(np.asarray(outputs)[0, :, 1, 2], 5), np.round(np.asarray(c)[1, 2, 3], 5))
print(layer.cell.bias.numpy())
layer = make(layers.ConvLSTM2D, 2, (2, 3), strides=(2, 1), go_backwards=True,
             use_bias=False)
x = np.random.RandomState(1).randn(2, 3, 3, 6, 5).astype("float32")
print(np.round(layer(x).numpy(), 5).ravel()[:12])
layer = make(layers.ConvLSTM1D, 3, 3, dilation_rate=2, unit_forget_bias=False, activation="relu",
             bias_initializer="ones")
print(np.round(layer(np.random.RandomState(2).randn(2, 5, 7, 2).astype("float32")).numpy(), 4).ravel()[:12])
layer = make(layers.ConvLSTM3D, 2, 2, padding="same", return_sequences=True)
x = np.random.RandomState(3).randn(1, 3, 4, 4, 5, 2).astype("float32")
print(np.round(layer(x).numpy(), 5).ravel()[-12:])
config = layer.get_config()
print(sorted(config))
print({k: config[k] for k in ["filters", "kernel_size", "strides", "padding", "data_format", "dilation_rate",
                              "activation", "recurrent_activation", "unit_forget_bias", "dropout", "seed",
                              "return_sequences", "unroll", "zero_output_for_mask"]})
clone = layers.ConvLSTM3D.from_config(config)
print(clone.filters, clone.kernel_size, clone.padding)
print(make(layers.ConvLSTM2D, 2, 3, return_state=True).compute_output_shape((None, 4, 5, 6, 3)))
inputs = keras.Input((4, 5, 6, 3))
model = keras.Model(inputs, layers.Flatten()(make(layers.ConvLSTM2D, 2, 3)(inputs)))
print(model.output_shape)
model.compile("sgd", "mse")
model.fit(x2, np.ones((2, 24)), epochs=2, verbose=0)
print(np.round(model.predict(x2, verbose=0)[0, :6], 5))
