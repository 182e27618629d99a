"""Keras 3's adaptive average and max pooling, 1-D to 3-D, both data formats, configs and errors."""
import numpy as np
import tensorflow as tf

keras = tf.keras
layers = keras.layers
x1 = np.random.RandomState(0).rand(2, 7, 3).astype("float32")
for n in [2, 3, 5, 7, 9]:
    print(n, np.round(layers.AdaptiveAveragePooling1D(n)(x1).numpy()[0], 5).tolist())
    print(n, layers.AdaptiveMaxPooling1D(n)(x1).numpy()[1].tolist())
x2 = np.random.RandomState(1).rand(2, 5, 6, 3).astype("float32")
for n in [(2, 3), (4, 4), (7, 8)]:
    for fmt in ["channels_last", "channels_first"]:
        average = layers.AdaptiveAveragePooling2D(n, data_format=fmt)(x2).numpy()
        print(n, fmt, np.round(average, 5).ravel()[:8])
        print(n, fmt, layers.AdaptiveMaxPooling2D(n, data_format=fmt)(x2).numpy().ravel()[-8:])
x3 = np.random.RandomState(2).rand(1, 5, 4, 6, 2).astype("float32")
for n in [(2, 3, 4), 3]:
    print(n, np.round(layers.AdaptiveAveragePooling3D(n)(x3).numpy(), 5).ravel()[:8])
    print(n, layers.AdaptiveMaxPooling3D(n, data_format="channels_first")(x3).numpy().ravel()[:8])
first = layers.AdaptiveAveragePooling2D([3, 2], data_format="channels_first")
print(first.compute_output_shape((None, 3, 5, 6)))
config = layers.AdaptiveMaxPooling1D(3).get_config()
print(config["output_size"], config["data_format"])
model = keras.Sequential([keras.Input((5, 6, 3)), layers.AdaptiveMaxPooling2D(2), layers.Flatten()])
print(model.output_shape)
for make in [lambda: layers.AdaptiveAveragePooling1D((1, 2)), lambda: layers.AdaptiveAveragePooling1D("a"),
             lambda: layers.AdaptiveAveragePooling2D((1, 2, 3)), lambda: layers.AdaptiveMaxPooling3D(1.5),
             lambda: layers.AdaptiveMaxPooling2D(2, data_format="nhwc")]:
    try:
        make()
    except (TypeError, ValueError) as e:
        print(type(e).__name__, e)
