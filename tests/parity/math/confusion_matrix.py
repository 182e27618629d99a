"""confusion_matrix with labels and predictions, num_classes and an (N, 1) prediction column."""
import numpy as np
import tensorflow as tf

labels = tf.constant([0, 1, 2, 1, 0])
preds = tf.constant([0, 2, 2, 1, 1])
print(tf.math.confusion_matrix(labels, preds))
print(tf.math.confusion_matrix(labels, preds, num_classes=4))
print(tf.math.confusion_matrix(labels, preds, weights=tf.constant([1, 2, 3, 4, 5])))
col = np.array([[0], [1], [2], [1], [0]])
print(tf.math.confusion_matrix(np.array([0, 1, 2, 1, 1]), col))
print(tf.math.confusion_matrix(labels, preds, dtype=tf.float32).dtype)
