"""Keras 3's errors for common layer mistakes, and its wrapping of an error raised in a layer's call."""
import numpy as np
import tensorflow as tf

keras = tf.keras
layers = keras.layers
a = np.ones((2, 3), "float32")
b = np.ones((2, 4), "float32")


def show(label, fn, whole=False):
    """The error's class and first line; ``whole``: its whole text, or with "wrapped" the lines
    Keras adds around the inner error and the inner error's first line."""
    try:
        fn()
        print(label, "no error")
    except Exception as e:
        lines = str(e).replace("\x1b[1m", "").replace("\x1b[0m", "").splitlines()
        print(label, type(e).__name__)
        if whole == "wrapped":
            start = next(i for i, line in enumerate(lines) if line.startswith("Arguments received by"))
            lines = lines[:3] + lines[start:]
        print("\n".join(lines if whole else lines[:1]))


class Bad(layers.Layer):
    def call(self, inputs, training=None):
        raise ValueError("boom")


class Broken(keras.Model):
    def __init__(self):
        super().__init__()
        self.dense = layers.Dense(2, kernel_initializer="ones")

    def call(self, x):
        return self.dense(x) + tf.ones((5,))


def disconnected(outputs_as_list):
    i1, i2 = keras.Input((3,)), keras.Input((3,))
    out = layers.Add()([layers.Dense(2)(i1), layers.Dense(2)(i2)])
    return keras.Model(i1, [i1, out] if outputs_as_list else out)


def wrong_last_dimension():
    dense = layers.Dense(2)
    dense(a)
    dense(b)


def broken_fit(model):
    model.compile("sgd", "mse")
    model.fit(a, np.ones((2, 2)), verbose=0)


def sequential(run):
    model = keras.Sequential([keras.Input((3,)), layers.Dense(2)])
    model.compile("sgd", "mse")
    return run(model)


def functional(x):
    inputs = keras.Input((3,))
    return keras.Model(inputs, layers.Dense(2, kernel_initializer="ones")(inputs))(x)


show("concatenate", lambda: layers.Concatenate()([a, np.ones((3, 3), "float32")]))
show("concatenate symbolic", lambda: layers.Concatenate(axis=0)([keras.Input((3,)), keras.Input((4,))]))
show("concatenate not a list", lambda: layers.Concatenate()(a))
print("concatenate one", layers.Concatenate()([a]).shape)
for merge in (layers.Add, layers.Subtract, layers.Multiply):
    show(merge.__name__, lambda merge=merge: merge()([a, b]))
    show(merge.__name__ + " symbolic", lambda merge=merge: merge()([keras.Input((3,)), keras.Input((4,))]))
    show(merge.__name__ + " one", lambda merge=merge: print(merge()([a]).shape))
show("Add not a list", lambda: layers.Add()(a))
show("Add batch sizes", lambda: layers.Add()([a, np.ones((3, 3), "float32")]))
show("Subtract three", lambda: layers.Subtract()([a, a, a]))
print("Add ranks", layers.Add()([a, np.ones((2, 1, 3), "float32")]).shape)
show("reshape", lambda: layers.Reshape((4,))(a), whole=True)
show("reshape symbolic", lambda: layers.Reshape((-1, 2))(keras.Input((3,))))
show("reshape two -1", lambda: layers.Reshape((-1, -1)))
show("reshape -2", lambda: layers.Reshape((-2, 3)))
show("dense last None", lambda: layers.Dense(3)(keras.Input((None,))))
show("graph disconnected", lambda: disconnected(False))
show("graph disconnected list", lambda: disconnected(True))
show("built wrong dimension", wrong_last_dimension)
show("bad call", lambda: Bad()(a, training=True), whole=True)
show("bad call symbolic", lambda: Bad()(keras.Input((3,))), whole=True)
show("broken model", lambda: Broken()(a))
show("broken model predict", lambda: Broken().predict(a, verbose=0))
show("broken model fit", lambda: broken_fit(Broken()))
show("sequential call", lambda: sequential(lambda m: m(b)), whole="wrapped")
show("sequential predict", lambda: sequential(lambda m: m.predict(b, verbose=0)), whole="wrapped")
show("sequential fit", lambda: sequential(lambda m: m.fit(b, np.ones((2, 2)), verbose=0)))
show("functional wrong shape", lambda: functional(b))
show("functional wrong rank", lambda: functional(np.ones((3,), "float32")))
show("sequential predict wrong rank", lambda: sequential(lambda m: m.predict(np.ones((2, 3, 2)), verbose=0)))
print("functional squeezes", functional(np.ones((2, 3, 1), "float32")).numpy().tolist())
keras.config.disable_traceback_filtering()
show("filtering off", lambda: Bad()(a))
keras.config.enable_traceback_filtering()
print(keras.config.is_traceback_filtering_enabled())
