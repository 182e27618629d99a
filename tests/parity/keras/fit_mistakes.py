"""Keras 3's errors (class and first line) for common compile/fit mistakes."""
import numpy as np
import tensorflow as tf

keras = tf.keras
x = np.ones((4, 3), "float32")


def show(label, fn, shapes=True):
    """The error's class and first line (without the shapes it received when ``shapes`` is False:
    TF's fit traces its step for any batch size, (None, 2), companion's for the batch's)."""
    try:
        fn()
        print(label, "no error")
    except Exception as e:
        print(label, type(e).__name__)
        print(str(e).splitlines()[0] if shapes else str(e).split(" Received")[0])


def model():
    return keras.Sequential([keras.Input((3,)), keras.layers.Dense(2, kernel_initializer="ones")])


def compiled(loss="mse"):
    m = model()
    m.compile("sgd", loss)
    return m


probs = np.array([[0.25, 0.75], [0.5, 0.5]], "float32")
show("unknown optimizer", lambda: model().compile("nope", "mse"))
show("unknown loss get", lambda: keras.losses.get("nope"))
show("x and y lengths", lambda: compiled().fit(x, np.ones((3, 2)), verbose=0))
show("fit before compile", lambda: model().fit(x, np.ones((4, 2)), verbose=0))
show("evaluate before compile", lambda: model().evaluate(x, np.ones((4, 2)), verbose=0))
show("fit without labels", lambda: compiled().fit(x, verbose=0))
show("sparse loss, one-hot labels", lambda: keras.losses.sparse_categorical_crossentropy(np.eye(2), probs))
show("categorical loss, integer labels",
     lambda: keras.losses.categorical_crossentropy(np.array([0.0, 1.0]), probs))
show("categorical loss, 3 classes", lambda: keras.losses.categorical_crossentropy(np.eye(3)[:2], probs))
show("sparse loss, labels (2, 1)",
     lambda: print(keras.losses.sparse_categorical_crossentropy(np.array([[0], [1]]), probs).numpy()))
show("sparse fit, one-hot labels", lambda: compiled("sparse_categorical_crossentropy").fit(
    x, np.eye(2)[[0, 1, 1, 0]], verbose=0), shapes=False)
history = compiled("sparse_categorical_crossentropy").fit(x, np.array([0.0, 1.0, 1.0, 0.0]), verbose=0)
print("float labels", [round(v, 4) for v in history.history["loss"]])
