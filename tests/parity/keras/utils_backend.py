"""to_categorical, backend floatx and clear_session."""
import tensorflow as tf

print(tf.keras.utils.to_categorical([0, 2, 1], num_classes=3))
print(tf.keras.backend.floatx())
print(tf.keras.backend.epsilon())
tf.keras.backend.clear_session()
print(tf.keras.layers.Dense(1).name)
print(tf.keras.layers.Dense(1).name)
