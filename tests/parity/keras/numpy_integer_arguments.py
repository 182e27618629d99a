"""NumPy integers where Keras takes a Python int: Input shapes and fit's step counts take them; Dense's
units and Embedding's sizes refuse them with Keras 3's text."""
import numpy as np
import tensorflow as tf

keras = tf.keras


def show(label, fn):
    try:
        print(label, fn())
    except Exception as error:
        print(label, type(error).__name__, str(error).splitlines()[0])


show("Input", lambda: keras.Input((np.int64(3),)).shape)
show("Input int", lambda: keras.Input(np.int32(4)).shape)
show("Dense", lambda: keras.layers.Dense(np.int64(4)))
show("Dense 0", lambda: keras.layers.Dense(0))
show("Embedding", lambda: keras.layers.Embedding(np.int64(10), 4))
show("Embedding 0", lambda: keras.layers.Embedding(10, 0))
x, y = np.ones((8, 3), "float32"), np.ones((8, 1), "float32")
model = keras.Sequential([keras.Input((3,)), keras.layers.Dense(1)])
model.compile("sgd", "mse")
show("steps_per_epoch", lambda: model.fit(x, y, batch_size=2, steps_per_epoch=np.int64(2),
                                          verbose=0).params["steps"])
show("epochs", lambda: len(model.fit(x, y, epochs=np.int64(2), verbose=0).history["loss"]))
