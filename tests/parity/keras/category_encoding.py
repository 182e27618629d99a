"""CategoryEncoding: one-hot, multi-hot and count (weighted) encodings, shapes, configs, in a model."""
import numpy as np
import tensorflow as tf

L = tf.keras.layers


def r(t):
    return np.asarray(t).tolist()


print(r(L.CategoryEncoding(4)([[0, 1], [0, 0], [1, 2], [3, 1]])))
print(r(L.CategoryEncoding(4, output_mode="one_hot")([3, 2, 0, 1])))
print(r(L.CategoryEncoding(4, output_mode="one_hot")([[3], [2]])))
print(r(L.CategoryEncoding(4, output_mode="one_hot")([[3, 1], [2, 0]])).__len__())
print(r(L.CategoryEncoding(4, output_mode="multi_hot")([3, 2, 0, 3])))
print(r(L.CategoryEncoding(4, output_mode="count")([[0, 1, 1], [3, 3, 3]])))
weights = [[0.5, 0.25], [1.0, 2.0]]
print(r(L.CategoryEncoding(4, output_mode="count")([[0, 1], [0, 0]], count_weights=weights)))
print(r(L.CategoryEncoding(3, output_mode="count")(2)))
print(L.CategoryEncoding(4).get_config()["output_mode"])
print(L.CategoryEncoding(4).compute_output_shape((None, 3)))
print(L.CategoryEncoding(4, output_mode="one_hot").compute_output_shape((None,)))
print(L.CategoryEncoding(4)([[0, 1]]).dtype)
m = tf.keras.Sequential([L.Input((2,), dtype="int32"), L.CategoryEncoding(5, output_mode="multi_hot"),
                         L.Dense(1, kernel_initializer="ones")])
print(r(m.predict(np.array([[0, 4], [2, 2]]), verbose=0)))
