"""embedding_lookup, bias_add and compute_average_loss."""
import tensorflow as tf

table = tf.constant([[0.0, 0.1], [1.0, 1.1], [2.0, 2.1]])
print(tf.nn.embedding_lookup(table, [2, 0, 2]))
print(tf.nn.embedding_lookup(table, [[0, 1], [1, 2]]).shape)
print(tf.nn.bias_add(tf.zeros((2, 3)), tf.constant([1.0, 2.0, 3.0])))
print(tf.nn.compute_average_loss(tf.constant([1.0, 2.0, 3.0])))
print(tf.nn.compute_average_loss(tf.constant([1.0, 2.0, 3.0]), global_batch_size=6))
print(tf.nn.compute_average_loss(tf.constant([1.0, 2.0]), sample_weight=tf.constant([1.0, 0.0])))
print(tf.nn.scale_regularization_loss(tf.constant(4.0)))
