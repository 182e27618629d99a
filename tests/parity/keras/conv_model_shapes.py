"""A small CNN's output shapes and parameter counts."""
import tensorflow as tf

model = tf.keras.Sequential([
    tf.keras.Input((28, 28, 1)),
    tf.keras.layers.Conv2D(8, 3, activation="relu"),
    tf.keras.layers.MaxPooling2D(),
    tf.keras.layers.Conv2D(16, 3, padding="same"),
    tf.keras.layers.GlobalAveragePooling2D(),
    tf.keras.layers.Flatten(),
    tf.keras.layers.Dense(10),
])
for layer in model.layers:
    print(layer.__class__.__name__, layer.output.shape, layer.count_params())
print(model.count_params())
