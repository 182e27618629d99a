"""from_tensors keeps the whole value as one element."""
import tensorflow as tf

ds = tf.data.Dataset.from_tensors([1, 2, 3])
print(ds.element_spec)
print(list(ds.as_numpy_iterator()))
print(ds.cardinality().numpy())
print(list(ds.repeat(2).unbatch().as_numpy_iterator()))
