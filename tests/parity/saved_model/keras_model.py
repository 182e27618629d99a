"""tf.saved_model.save of a Keras model and calling the loaded object."""
import numpy as np
import tensorflow as tf

model = tf.keras.Sequential([tf.keras.Input((2,)), tf.keras.layers.Dense(1, kernel_initializer="ones")])
tf.saved_model.save(model, "km")
loaded = tf.saved_model.load("km")
print(list(loaded.signatures.keys()))
out = loaded.signatures["serving_default"](tf.constant([[1.0, 2.0]]))
print([np.round(v.numpy(), 4).tolist() for v in out.values()])
print(tf.saved_model.contains_saved_model("km"))
