"""The batch dimension is None unless drop_remainder=True."""
import tensorflow as tf

ds = tf.data.Dataset.range(7)
print(ds.batch(3).element_spec)
print(ds.batch(3, drop_remainder=True).element_spec)
print([b.numpy().tolist() for b in ds.batch(3)])
print([b.numpy().tolist() for b in ds.batch(3, drop_remainder=True)])
print(ds.batch(3).cardinality().numpy(), ds.batch(3, drop_remainder=True).cardinality().numpy())
img = tf.data.Dataset.from_tensor_slices(tf.zeros((5, 4, 4, 1)))
print(img.batch(2).element_spec)
