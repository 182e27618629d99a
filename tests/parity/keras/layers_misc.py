"""Flatten, Reshape, Concatenate, Add, Lambda, Activation layers."""
import tensorflow as tf

x = tf.reshape(tf.range(6.0), (1, 2, 3))
print(tf.keras.layers.Flatten()(x))
print(tf.keras.layers.Reshape((3, 2))(x).shape)
print(tf.keras.layers.Concatenate()([x, x]).shape)
print(tf.keras.layers.Add()([x, x]))
print(tf.keras.layers.Lambda(lambda t: t * 10)(x))
print(tf.keras.layers.Activation("relu")(tf.constant([-1.0, 1.0])))
print(tf.keras.layers.Rescaling(1 / 255.0)(tf.constant([255.0])))
