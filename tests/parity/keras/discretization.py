"""Discretization: given boundaries, adapted quantile boundaries (arrays, datasets, 2-D data),
encoded outputs and config."""
import numpy as np
import tensorflow as tf

L = tf.keras.layers


def r(t):
    return np.asarray(t).tolist()


d = L.Discretization(bin_boundaries=[0.0, 1.0, 2.0])
print(r(d([[-1.5, 1.0, 3.4, 0.5], [0.0, 2.0, 1.99, -0.0]])), d([[1.0]]).dtype)
rng = np.random.default_rng(11)
data = rng.normal(size=(500,)).astype("float32") * 3 + 2
a = L.Discretization(num_bins=4, epsilon=0.01)
a.adapt(data)
print(np.round(a.bin_boundaries, 4).tolist(), r(a(np.array([[-5.0, 0.0, 2.0, 5.0]], "float32"))))
b = L.Discretization(num_bins=5)
b.adapt(tf.data.Dataset.from_tensor_slices(data).batch(64))
print(np.round(b.bin_boundaries, 4).tolist())
c = L.Discretization(num_bins=3, epsilon=0.1)
c.adapt(np.arange(20, dtype="float32").reshape(4, 5))
print(np.round(c.bin_boundaries, 4).tolist())
print(r(L.Discretization(bin_boundaries=[0.0, 1.0], output_mode="one_hot")([[0.5], [1.5]])))
print(r(L.Discretization(bin_boundaries=[0.0, 1.0], output_mode="multi_hot")([[0.5, -2.0], [1.5, 1.7]])))
print(r(L.Discretization(bin_boundaries=[0.0, 1.0], output_mode="count")([[0.5, 0.7], [1.5, -1.0]])))
print(sorted(L.Discretization(num_bins=2).get_config()))
