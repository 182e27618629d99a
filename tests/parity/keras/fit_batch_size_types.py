"""fit's batch_size: a NumPy integer is a batch size; a string or a float is a TypeError (class only:
TF's text comes from the op that first uses it)."""
import numpy as np
import tensorflow as tf

keras = tf.keras
x, y = np.ones((8, 3), "float32"), np.ones((8, 1), "float32")
model = keras.Sequential([keras.Input((3,)), keras.layers.Dense(1)])
model.compile("sgd", "mse")
for size in (np.int64(3), np.int32(4), 8):
    print(type(size).__name__, model.fit(x, y, batch_size=size, verbose=0).params["steps"])
for size in ("a", 2.5, 4.0):
    try:
        model.fit(x, y, batch_size=size, verbose=0)
        print(repr(size), "no error")
    except Exception as error:
        print(repr(size), type(error).__name__, isinstance(error, TypeError))
