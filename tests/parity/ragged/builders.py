"""tf.ragged.range, stack, boolean_mask and the segment-id/row-split conversions."""
import tensorflow as tf

print(tf.ragged.range([3, 5, 2]))
print(tf.ragged.range([0, 5, 8], [3, 3, 12], [1, -1, 2]))
print(tf.ragged.range(tf.constant([0.0, 1.5]), [2.0, 3.0], 0.5))
r = tf.ragged.range(3, [4, 5])
print(r, r.values.dtype, r.row_lengths())
print(tf.ragged.row_splits_to_segment_ids([0, 3, 3, 5, 6, 9]))
print(tf.ragged.row_splits_to_segment_ids(tf.constant([0, 2, 3]), out_type=tf.int32))
print(tf.ragged.segment_ids_to_row_splits([0, 0, 0, 2, 2, 3, 4, 4, 4]))
print(tf.ragged.segment_ids_to_row_splits([0, 0, 1], num_segments=4))
print(tf.ragged.segment_ids_to_row_splits(tf.constant([0, 1, 1], tf.int32)))

a = tf.ragged.constant([[1, 2], [3]])
b = tf.ragged.constant([[4], [], [5, 6]])
stacked = tf.ragged.stack([a, b])
print(stacked, stacked.shape)
print(tf.ragged.stack([tf.constant([1, 2]), tf.constant([3, 4, 5])]))
print(tf.ragged.stack([a, tf.constant([[7, 8]])]))
print(tf.ragged.stack([a, tf.ragged.constant([[9, 9], []])], axis=1).to_list())

data = tf.constant([[1, 2, 3], [4, 5, 6]])
print(tf.ragged.boolean_mask(data, tf.constant([[True, False, True], [False, False, True]])))
print(tf.ragged.boolean_mask(data, tf.constant([True, False])))
print(tf.ragged.boolean_mask(a, tf.ragged.constant([[True, False], [True]])).to_list())

for label, fn in [
    ("range delta", lambda: tf.ragged.range([2, 3], [4, 5], 0)),
    ("range shapes", lambda: tf.ragged.range([2, 3], [4, 5, 6])),
    ("splits rank", lambda: tf.ragged.row_splits_to_segment_ids([[0, 2]])),
    ("stack dtypes", lambda: tf.ragged.stack([a, tf.ragged.constant([[1.0]])])),
    ("mask shape", lambda: tf.ragged.boolean_mask(tf.constant([[1, 2, 3]]), tf.constant([[True, False]]))),
    ("mask dtype", lambda: tf.ragged.boolean_mask(tf.constant([[1, 2, 3]]), tf.constant([[1, 0, 1]]))),
]:
    try:
        fn()
        print(label, "ok")
    except Exception as e:  # noqa: BLE001 - the class is what is compared
        print(label, type(e).__name__)
print(tf.ragged.stack([tf.constant([[1, 2]]), tf.constant([[3, 4], [5, 6]])]))
print(tf.ragged.stack([tf.constant([[1, 2]]), tf.constant([[3, 4]])], axis=0))
print(tf.ragged.stack([tf.constant([[1, 2]]), tf.constant([[3, 4]])], axis=2))
print(tf.ragged.stack([tf.ragged.constant([[[1]], [[2, 3]]]), tf.ragged.constant([[[4]]])]))
print(tf.ragged.stack([a]))
print(repr(tf.ragged.constant([])), repr(tf.ragged.constant([1, 2])), repr(tf.ragged.constant(5)))
