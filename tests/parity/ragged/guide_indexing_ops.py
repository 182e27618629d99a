"""The Ragged tensors guide's indexing, float printing, nn/math ops on ragged values, reverse, factories."""
import tensorflow as tf

queries = tf.ragged.constant([["Who", "is", "George", "Washington"],
                              ["What", "is", "the", "weather", "tomorrow"], ["Goodnight"]])
print(queries[1], queries[1, 2], queries[1:], queries[:, :3], queries[:, -2:])
rt = tf.ragged.constant([[[1, 2, 3], [4]], [[5], [], [6]], [[7]], [[8, 9], [10]]])
print(rt[1], rt[3, 0], rt[:, 1:3], rt[:, -1:])
print(rt[:, :, :1], rt[1:3, 1:])

r = tf.ragged.constant([[1.0, 2.0], [3.0]])
print(tf.math.sqrt(r), tf.math.log(r), tf.math.exp(r), r / 3)
print(tf.ragged.constant([[1.5]], tf.float64) / 3, tf.ragged.constant([[1, 2], [3]]) / 3)
print(tf.nn.relu(r - 2), tf.nn.elu(r - 2), tf.nn.leaky_relu(r - 2), tf.nn.gelu(r), tf.sigmoid(r))
print(tf.clip_by_value(r, 1.5, 2.5), tf.math.add_n([r, r]), tf.identity(r), tf.math.divide_no_nan(r, r))
print(tf.one_hot(tf.ragged.constant([[0, 2], [1]]), 3), tf.math.truediv(r, 2.0))
print(tf.nn.dropout(r, 0.5).shape)

a = tf.ragged.constant([[1, 2], [3]])
n = tf.ragged.constant([[[1, 2], [3]], [[4, 5, 6]]])
print(tf.reverse(a, [1]), tf.reverse(a, [0]), tf.reverse(n, [2]), tf.reverse(n, [0, 1]))
print(tf.RaggedTensor.from_row_starts([1, 2, 3], [0, 2]), tf.RaggedTensor.from_row_limits([1, 2, 3], [2, 3]))
print(a.nested_row_lengths(), a.nested_value_rowids(), a.uniform_row_length)
print(tf.expand_dims(a, 1).uniform_row_length)
print(tf.reduce_mean(tf.constant([], tf.int32)))
digits = tf.ragged.constant([[3, 1, 4, 1], [], [5, 9, 2], [6], []])
print(tf.map_fn(tf.math.square, digits))
print(tf.map_fn(lambda row: tf.reduce_sum(row), digits, fn_output_signature=tf.int32))
print(tf.map_fn(lambda row: row[:1], digits, fn_output_signature=tf.RaggedTensorSpec([None], tf.int32, 0)))
