"""The functional API: inputs, outputs, shapes."""
import tensorflow as tf

inputs = tf.keras.Input(shape=(3,), name="features")
x = tf.keras.layers.Dense(4, activation="relu", kernel_initializer="ones")(inputs)
outputs = tf.keras.layers.Dense(1, kernel_initializer="ones")(x)
model = tf.keras.Model(inputs=inputs, outputs=outputs)
print(model.input_shape, model.output_shape)
print(model(tf.constant([[1.0, 0.0, -1.0], [1.0, 1.0, 1.0]])))
print([layer.__class__.__name__ for layer in model.layers])
print(inputs.shape, inputs.dtype)
