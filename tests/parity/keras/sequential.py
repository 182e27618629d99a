"""Sequential model: layers, parameter counts, names."""
import tensorflow as tf

model = tf.keras.Sequential([
    tf.keras.layers.Input(shape=(4,)),
    tf.keras.layers.Dense(8, activation="relu"),
    tf.keras.layers.Dense(3, activation="softmax"),
])
print(model.count_params())
print([layer.name for layer in model.layers])
print(len(model.trainable_variables), len(model.weights))
print(model.input_shape, model.output_shape)
print(model(tf.zeros((2, 4))).shape)
