"""Keras 3's AutoContrast, Equalization and the deterministic Solarization (default factors):
values, value ranges, bins, integer images, inference, configs and argument errors."""
import numpy as np
import tensorflow as tf

layers = tf.keras.layers
rs = np.random.RandomState(0)
x = (rs.rand(2, 6, 7, 3) * 200 + 20).astype("float32")
x[1, :, :, 2] = 7.0
print(np.round(layers.AutoContrast()(x).numpy(), 3)[:, 0])
print(np.round(layers.AutoContrast(value_range=(1, 0))(x / 255.0).numpy(), 5)[0, 1])
print(np.round(layers.AutoContrast(value_range=[-1, 1])(x[0] / 128 - 1).numpy(), 4)[2])
print(layers.AutoContrast()(x.astype("uint8")).dtype)
print(layers.Solarization()(x).numpy()[:, 0])
print(np.round(layers.Solarization(value_range=(0, 1))(x[0] / 255).numpy(), 5)[1])
print(layers.Solarization()(x, training=False).numpy()[0, 0], layers.Solarization()(x.astype("uint8")).dtype)
e = x.copy()
e[:, :, :, 1] = np.round(e[:, :, :, 1] / 40) * 40
print(layers.Equalization()(e).numpy()[:, 0])
print(layers.Equalization(bins=16)(e).numpy()[1, 2])
print(layers.Equalization()(e.astype("uint8")).numpy()[0, 3])
print(np.round(layers.Equalization(value_range=(0, 1))(e / 255).numpy(), 5)[0, 4])
print(layers.Equalization()(e, training=False).numpy()[0, 0])
model = tf.keras.Sequential([tf.keras.Input((6, 7, 3)), layers.Equalization(), layers.Solarization()])
print(model.output_shape, model.predict(e, verbose=0)[0, 0])
for layer in [layers.AutoContrast(name="a"), layers.Equalization(value_range=(1, 0), bins=8, name="e"),
              layers.Solarization(addition_factor=0.5, threshold_factor=[0.7, 0.2], seed=3, name="s")]:
    config = layer.get_config()
    print(sorted((k, v) for k, v in config.items() if k != "dtype"))
for make in [lambda: layers.AutoContrast(value_range=3),
             lambda: layers.AutoContrast(value_range=(1, 2, 3)),
             lambda: layers.Solarization(addition_factor=2),
             lambda: layers.Solarization(threshold_factor="a")]:
    try:
        make()
    except ValueError as err:
        print(err)
