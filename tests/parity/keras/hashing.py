"""Hashing: FarmHash buckets of strings, integers and floats, mask values, encoded outputs, dtypes."""
import numpy as np
import tensorflow as tf

L = tf.keras.layers


def r(t):
    return np.asarray(t).tolist()


print(r(L.Hashing(num_bins=3)([["A"], ["B"], ["C"], ["D"], ["E"]])))
print(r(L.Hashing(num_bins=3, mask_value="")([["A"], ["B"], [""], ["C"], ["D"]])))
print(r(L.Hashing(num_bins=5)(tf.constant([[1, 2], [3, 100]]))))
print(r(L.Hashing(num_bins=5, mask_value=0)(tf.constant([[0, 2], [3, 0]]))))
print(r(L.Hashing(num_bins=4)(tf.constant([1.7, -2.2]))))
print(r(L.Hashing(num_bins=4, output_mode="multi_hot")([["a", "b"], ["c", "a"]])))
print(r(L.Hashing(num_bins=4, output_mode="one_hot")([["a"], ["b"]])))
print(r(L.Hashing(num_bins=4, output_mode="count")([["a", "a", "b"]])))
h = L.Hashing(num_bins=7)
print(h([["x"]]).dtype, L.Hashing(4, output_mode="count")([["a"]]).dtype)
print(sorted(k for k in h.get_config() if k not in ("name", "trainable")))
