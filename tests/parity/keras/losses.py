"""Keras losses on fixed values."""
import tensorflow as tf

y_true = tf.constant([[0.0, 1.0], [1.0, 0.0]])
y_pred = tf.constant([[0.2, 0.8], [0.6, 0.4]])
print(round(float(tf.keras.losses.MeanSquaredError()(y_true, y_pred)), 5))
print(round(float(tf.keras.losses.BinaryCrossentropy()(y_true, y_pred)), 5))
print(round(float(tf.keras.losses.CategoricalCrossentropy()(y_true, y_pred)), 5))
print(round(float(tf.keras.losses.SparseCategoricalCrossentropy()(tf.constant([1, 0]), y_pred)), 5))
sparse_logits = tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True)
print(round(float(sparse_logits(tf.constant([1, 0]), y_pred)), 5))
print(tf.keras.losses.MeanAbsoluteError(reduction="none")(y_true, y_pred))
print(round(float(tf.keras.losses.Huber()(y_true, y_pred)), 5))
