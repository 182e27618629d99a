"""Unknown names given to the Keras get() functions, and an unknown layer class to deserialize."""
import tensorflow as tf

keras = tf.keras
for kind in ("losses", "metrics", "optimizers", "activations", "initializers", "regularizers", "constraints"):
    for identifier in ("nope", 5):
        try:
            getattr(keras, kind).get(identifier)
        except ValueError as e:
            print(kind, identifier, type(e).__name__, str(e).splitlines()[0].split(". ")[0])
try:
    keras.layers.deserialize({"class_name": "Nope", "config": {}})
except TypeError as e:
    print(type(e).__name__, str(e).split(". ")[0])
print(keras.activations.get("relu").__name__, type(keras.losses.get("mse")).__name__ == "function")
