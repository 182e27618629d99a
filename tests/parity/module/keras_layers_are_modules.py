"""Keras layers and models are tf.Modules."""
import tensorflow as tf

layer = tf.keras.layers.Dense(2)
print(isinstance(layer, tf.Module))
layer.build((None, 3))
print(len(layer.trainable_variables), len(layer.variables))
print([tuple(v.shape) for v in layer.trainable_variables])
model = tf.keras.Sequential([tf.keras.Input((3,)), tf.keras.layers.Dense(4), tf.keras.layers.Dense(1)])
print(isinstance(model, tf.Module))
print([tuple(v.shape) for v in model.trainable_variables])
