"""A RaggedTensor from rows: shapes, row lengths and to_list."""
import tensorflow as tf

r = tf.ragged.constant([[1, 2], [3], []])
print(r.shape)
print(r.row_lengths())
print(r.to_list())
print(tf.strings.split(tf.constant(["a b", "c"])).to_list())
