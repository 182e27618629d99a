"""tf.RaggedTensorSpec: repr, defaults, equality with a dataset's element_spec."""
import tensorflow as tf

print(tf.RaggedTensorSpec([None, None], tf.int32))
print(tf.RaggedTensorSpec(shape=[2, None], dtype=tf.float32, ragged_rank=1))
print(tf.RaggedTensorSpec([None, None, 2], tf.int32))
spec = tf.RaggedTensorSpec([3, None])
print(spec.shape, spec.dtype, spec.ragged_rank, spec.row_splits_dtype)
ds = tf.data.Dataset.range(4).map(lambda x: tf.range(x)).ragged_batch(2)
print(tf.RaggedTensorSpec(shape=[None, None], dtype=tf.int64) == ds.element_spec)
print(tf.RaggedTensorSpec(shape=[None, None], dtype=tf.int32) == ds.element_spec)
print(tf.data.Dataset.from_tensors(tf.ragged.constant([[1, 2], [3]])).element_spec)
try:
    tf.RaggedTensorSpec([None], tf.int32, ragged_rank=1)
except ValueError as e:
    print(type(e).__name__)
