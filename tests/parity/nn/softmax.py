"""softmax and log_softmax along the last axis and a chosen axis."""
import tensorflow as tf

logits = tf.constant([[1.0, 2.0, 3.0], [1.0, 1.0, 1.0]])
print(tf.nn.softmax(logits))
print(tf.nn.softmax(logits, axis=0))
print(tf.nn.log_softmax(logits))
print(tf.reduce_sum(tf.nn.softmax(logits), axis=-1))
print(tf.math.softmax(tf.constant([1000.0, 1000.0])))
