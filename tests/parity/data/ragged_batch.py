"""ragged_batch / dense_to_ragged_batch: components of unknown shape batch into RaggedTensors."""
import tensorflow as tf

ranges = tf.data.Dataset.range(5).map(lambda x: tf.range(x))
print(ranges.element_spec)
batched = ranges.ragged_batch(2)
print(batched.element_spec)
print(batched)
for b in batched:
    print(b)
applied = ranges.apply(tf.data.experimental.dense_to_ragged_batch(3))
for b in applied:
    print(b.to_list(), b.row_lengths().numpy().tolist())
print(tf.data.Dataset.range(4).ragged_batch(3).element_spec)
print(tf.data.Dataset.from_tensor_slices([[1, 2], [3, 4]]).ragged_batch(3).element_spec)
rows = tf.data.Dataset.range(4).map(lambda x: tf.fill([x, 3], x))
print(rows.ragged_batch(2).element_spec)
for b in rows.ragged_batch(2, drop_remainder=True):
    print(b.shape, b.values.shape, b.row_lengths().numpy().tolist())
pairs = tf.data.Dataset.range(4).map(lambda x: (tf.range(x), x))
for r, x in pairs.ragged_batch(4):
    print(r.to_list(), x.numpy().tolist())
