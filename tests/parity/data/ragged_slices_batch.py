"""from_tensor_slices of a RaggedTensor: dense rows of their own length; batch makes RaggedTensors."""
import tensorflow as tf

sentences = tf.ragged.constant([[1, 2], [3], [4, 5, 6]])
labels = [0, 1, 1]
ds = tf.data.Dataset.from_tensor_slices((sentences, labels))
print(ds.element_spec)
print(ds)
for x, y in ds:
    print(x, y)
print(ds.cardinality().numpy())
batched = ds.batch(2)
print(batched.element_spec)
for x, y in batched:
    print(x, y)
    print(x.to_list(), x.row_lengths().numpy().tolist())
print(ds.map(lambda x, y: (print("row", x, y), tf.reduce_sum(x) * 10 + y)[1]).element_spec)
print(list(ds.map(lambda x, y: tf.size(x)).as_numpy_iterator()))
print(ds.batch(2, drop_remainder=True).element_spec)
print([x.numpy().tolist() for x, _ in ds.batch(2).unbatch()])
nested = tf.data.Dataset.from_tensor_slices(tf.ragged.constant([[[1], [2, 3]], [[4]], [[5, 6, 7]]]))
print(nested.element_spec, nested.batch(2).element_spec)
for x in nested.batch(2):
    print(x)
try:
    ds.padded_batch(2)
except TypeError as e:
    print(type(e).__name__)
