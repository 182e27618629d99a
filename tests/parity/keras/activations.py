"""keras.activations by name and function."""
import tensorflow as tf

x = tf.constant([-1.0, 0.0, 1.0])
print(tf.keras.activations.relu(x))
print(tf.keras.activations.sigmoid(x))
print(tf.keras.activations.softmax(tf.constant([[1.0, 2.0]])))
print(tf.keras.activations.get("tanh")(x))
print(tf.keras.activations.get("linear")(x))
print(tf.keras.activations.serialize(tf.keras.activations.relu))
