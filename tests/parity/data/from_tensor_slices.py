"""from_tensor_slices over arrays, tuples and dicts."""
import numpy as np
import tensorflow as tf

ds = tf.data.Dataset.from_tensor_slices([1, 2, 3])
print([x.numpy() for x in ds])
ds = tf.data.Dataset.from_tensor_slices((np.array([[1, 2], [3, 4]]), np.array([0, 1])))
for x, y in ds:
    print(x.numpy(), y.numpy())
ds = tf.data.Dataset.from_tensor_slices({"a": [1.0, 2.0], "b": ["x", "y"]})
print(list(ds.as_numpy_iterator()))
print(ds.element_spec)
