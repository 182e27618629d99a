"""RaggedTensor in a function, under a tape, nested rows, column reductions and word splitting."""
import tensorflow as tf

r = tf.ragged.constant([[1.0, 2.0], [3.0], [4.0, 5.0, 6.0]])
print(tf.reduce_sum(r, axis=0))
print(tf.reduce_mean(r, axis=0))
print(tf.reduce_max(r, axis=-1))
print(tf.reduce_sum(r, axis=1, keepdims=True))
print(tf.reduce_mean(tf.ragged.constant([[1.0, 3.0], []]), axis=1))

w = tf.Variable(2.0)
with tf.GradientTape() as tape:
    y = tf.reduce_sum(tf.ragged.map_flat_values(lambda v: v * w, r) ** 2)
print(y, tape.gradient(y, w))


@tf.function
def row_sums(values):
    rt = tf.RaggedTensor.from_row_lengths(values, [2, 1, 3])
    return tf.reduce_sum(rt, axis=1)


print(row_sums(tf.constant([1, 2, 3, 4, 5, 6])))

nested = tf.ragged.constant([[[1, 2], [3]], [[4, 5, 6]]])
print(nested, nested.shape, nested.ragged_rank)
print(nested.flat_values)
print([s.numpy().tolist() for s in nested.nested_row_splits])
print(nested.to_list())
inner = tf.ragged.constant([[[1, 2], [3, 4]], [[5, 6]]], ragged_rank=1)
print(inner.shape, inner.values.shape)
print(inner.to_tensor())

words = tf.strings.split(tf.constant(["the cat sat", "on", "the mat today"]))
print(words)
print(words.row_lengths(), words.shape)
print(words.to_tensor(default_value="<pad>"))
print(tf.strings.length(words.values))
print(tf.ragged.map_flat_values(tf.strings.upper, words))
print(r > 2.5)
print(tf.cast(tf.ragged.constant([[True], [False, True]]), tf.int32))
print(-tf.ragged.constant([[1], [2, 3]]))
print(tf.RaggedTensor.from_row_splits([1, 2, 3], [0, 2, 3]).row_splits.dtype)
try:
    tf.RaggedTensor.from_row_splits([1, 2, 3], [0, 2, 5])
except Exception as e:
    print(type(e).__name__)
try:
    r + tf.ragged.constant([[1.0], [2.0, 3.0], [4.0]])
except Exception as e:
    print(type(e).__name__)
