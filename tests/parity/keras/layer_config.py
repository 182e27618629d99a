"""get_config and from_config of a Dense layer."""
import tensorflow as tf

layer = tf.keras.layers.Dense(5, activation="relu", name="my_dense")
config = layer.get_config()
print(config["units"], config["activation"], config["name"], config["use_bias"])
copy = tf.keras.layers.Dense.from_config(config)
print(copy.units, copy.name)
print(tf.keras.layers.Dropout(0.3).get_config()["rate"])
