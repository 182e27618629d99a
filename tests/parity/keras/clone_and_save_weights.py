"""clone_model gives new weights; save_weights/load_weights restore them."""
import numpy as np
import tensorflow as tf

model = tf.keras.Sequential([tf.keras.Input((2,)), tf.keras.layers.Dense(2, kernel_initializer="ones")])
clone = tf.keras.models.clone_model(model)
print(len(clone.layers), clone.layers[0].units)
model.save_weights("m.weights.h5")
other = tf.keras.Sequential([tf.keras.Input((2,)), tf.keras.layers.Dense(2, kernel_initializer="zeros")])
other.load_weights("m.weights.h5")
print([np.round(w, 3).tolist() for w in other.get_weights()])
