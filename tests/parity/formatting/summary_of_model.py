"""A Sequential model's layer names, parameter counts and output shapes."""
import tensorflow as tf

model = tf.keras.Sequential([
    tf.keras.Input((4,)),
    tf.keras.layers.Dense(8, activation="relu"),
    tf.keras.layers.Dense(2),
])
print(model.count_params())
for layer in model.layers:
    print(layer.name, layer.count_params(), layer.output.shape)
print(model.output_shape)
