"""A Dense layer with constant initializers: output, weight shapes and names."""
import tensorflow as tf

layer = tf.keras.layers.Dense(3, kernel_initializer="ones", bias_initializer="zeros", activation="relu")
y = layer(tf.constant([[1.0, -2.0], [0.5, 0.5]]))
print(y)
print([w.shape for w in layer.weights])
print([w.name for w in layer.weights])
print(layer.units, layer.activation.__name__, layer.use_bias)
print(layer.built, layer.input_spec is None or True)
