"""Dropout is the identity at inference; in training kept values are scaled by 1/(1-rate)."""
import tensorflow as tf

layer = tf.keras.layers.Dropout(0.5)
x = tf.ones((4, 10))
print(layer(x))
print(layer(x, training=False).numpy().sum())
y = layer(x, training=True)
print(y.shape, bool(tf.reduce_all((y == 0.0) | (y == 2.0))))
print(layer.rate)
