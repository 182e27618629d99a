"""The Ragged tensors guide's dispatched ops: concat, stack, tile, expand_dims, gather, broadcasting."""
import tensorflow as tf

digits = tf.ragged.constant([[3, 1, 4, 1], [], [5, 9, 2], [6], []])
print(tf.concat([digits, [[5, 3]]], axis=0))
print(tf.tile(digits, [1, 2]))
ragged_x = tf.ragged.constant([["John"], ["a", "big", "dog"], ["my", "cat"]])
ragged_y = tf.ragged.constant([["fell", "asleep"], ["barked"], ["is", "fuzzy"]])
print(tf.concat([ragged_x, ragged_y], axis=1))

a = tf.ragged.constant([[1, 2], [3]])
b = tf.ragged.constant([[1], [2], [3]])
print(tf.concat([a, a], axis=-1), tf.concat([a, a], axis=-2))
print(tf.stack([a, b]), tf.stack([a, a], axis=1), tf.stack([a, a], axis=2))
print(tf.stack([a, tf.constant([[7, 8]])], axis=0))
n = tf.ragged.constant([[[1, 2], [3]], [[4, 5, 6]]])
print(tf.concat([n, n], axis=0), tf.concat([n, n], axis=1), tf.concat([n, n], axis=2))
u = tf.ragged.constant([[[1, 2], [3, 4]], [[5, 6]]], ragged_rank=1)
print(tf.concat([u, u], axis=2), tf.concat([u, u], axis=1))
print(tf.concat([u, tf.constant([[[0, 0]], [[9, 9]]])], axis=1))
print(tf.tile(a, [2, 3]), tf.tile(u, [1, 2, 2]), tf.tile(n, [2, 1, 2]))
for axis in (0, 1, 2, -1):
    e = tf.expand_dims(a, axis)
    print(e, e.shape)
print(tf.gather(a, [1, 0, 1]), tf.gather(n, [1, 0]), tf.gather(a, [[1, 0], [0, 0]]))
print(tf.gather(tf.constant([10, 20, 30]), tf.ragged.constant([[2, 0], [1]])))
print(tf.zeros_like(a), tf.ones_like(a), tf.where(a > 1, a, tf.zeros_like(a)))
print(tf.size(a), tf.rank(a), tf.rank(n))
print((a > 1) & (a < 3), (a > 1) | (a < 3), ~(a > 1), (a > 1) ^ (a < 3))

x = tf.ragged.constant([[10, 87, 12], [19, 53], [12, 32]])
print(x + [[1000], [2000], [3000]])
x = tf.ragged.constant([[[1, 2], [3, 4], [5, 6]], [[7, 8]]], ragged_rank=1)
print(x + tf.constant([[10]]))
x = tf.ragged.constant([[[[1], [2]], [], [[3]], [[4]]], [[[5], [6]], [[7]]]], ragged_rank=2)
print(x + tf.constant([10, 20, 30]))

r = tf.ragged.range([3, 5, 2], row_splits_dtype=tf.int32)
print(r.row_splits, r.row_lengths(), r.value_rowids(), r.nrows(), r.bounding_shape())
r32 = tf.ragged.constant([[1, 2], [3]], row_splits_dtype=tf.int32)
print(r32.row_splits, tf.RaggedTensor.from_row_splits([1, 2, 3], tf.constant([0, 2, 3], tf.int32)).row_splits)
print(r32.with_row_splits_dtype(tf.int64).row_splits)

for label, fn in [
    ("concat rows", lambda: tf.concat([a, b], axis=1)),
    ("stack rows", lambda: tf.stack([a, b], axis=1)),
    ("concat dtype", lambda: tf.concat([a, tf.ragged.constant([[1.0]])], axis=0)),
    ("concat rank", lambda: tf.concat([a, tf.ragged.constant([[[1]]])], axis=0)),
    ("splits dtypes", lambda: r32 + a),
    ("concat splits dtypes", lambda: tf.concat([r32, a], axis=0)),
    ("add rows", lambda: tf.ragged.constant([[1, 2, 3], [4]]) + tf.ragged.constant([[1, 2], [3, 4], [5, 6]])),
    ("add dense", lambda: x + [[1, 2], [3, 4], [5, 6]]),
    ("add dense rows", lambda: a + tf.constant([[1, 2], [3, 4]])),
    ("and ints", lambda: a & a),
]:
    try:
        fn()
        print(label, "ok")
    except Exception as e:  # noqa: BLE001 - the class is what is compared
        print(label, type(e).__name__)
