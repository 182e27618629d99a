"""Strings through map and batch."""
import tensorflow as tf

ds = tf.data.Dataset.from_tensor_slices(["Hello World", "tf data", "Parity"])
ds = ds.map(tf.strings.lower).map(lambda s: (s, tf.strings.length(s)))
for s, n in ds:
    print(s.numpy(), n.numpy())
print(ds.element_spec)
print(list(ds.batch(2).as_numpy_iterator())[0][0])
