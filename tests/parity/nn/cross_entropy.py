"""The nn cross-entropy functions on logits."""
import tensorflow as tf

logits = tf.constant([[2.0, 1.0, 0.1], [0.5, 2.5, 0.3]])
labels = tf.constant([[1.0, 0.0, 0.0], [0.0, 1.0, 0.0]])
print(tf.nn.softmax_cross_entropy_with_logits(labels=labels, logits=logits))
print(tf.nn.sparse_softmax_cross_entropy_with_logits(labels=tf.constant([0, 1]), logits=logits))
print(tf.nn.sigmoid_cross_entropy_with_logits(labels=tf.constant([1.0, 0.0]),
                                              logits=tf.constant([0.5, -1.0])))
print(tf.nn.weighted_cross_entropy_with_logits(labels=tf.constant([1.0]), logits=tf.constant([0.5]),
                                               pos_weight=2.0))
