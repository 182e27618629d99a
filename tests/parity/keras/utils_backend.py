"""to_categorical, backend floatx and clear_session."""
import tensorflow as tf

print(tf.keras.utils.to_categorical([0, 2, 1], num_classes=3))
print(tf.keras.utils.to_categorical([[1], [0]]).dtype, tf.keras.utils.to_categorical([[1], [0]]).shape)
one_hot = tf.keras.utils.to_categorical(tf.constant([2, 0]), 3)
print(tf.is_tensor(one_hot), one_hot.dtype.name, one_hot.numpy().tolist())
print(tf.keras.backend.floatx())
print(tf.keras.backend.epsilon())
tf.keras.backend.clear_session()
print(tf.keras.layers.Dense(1).name)
print(tf.keras.layers.Dense(1).name)
