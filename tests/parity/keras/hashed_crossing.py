"""Keras 3's HashedCrossing: TF's cross_hashed bucket ids for int and string features, one-hot
output, scalars, a traced call, a tf.data map, configs and the argument errors."""
import numpy as np
import tensorflow as tf

layers = tf.keras.layers
print(layers.HashedCrossing(1000)((tf.constant([[1], [2]], tf.int64), tf.constant([["a"], ["b"]]))).numpy())
print(layers.HashedCrossing(2 ** 40)((np.array([1, -2]), np.array([3, 4]), np.array(["x", "y"]))).numpy())
pair = (np.array([[1], [2]], "int32"), np.array([["a"], ["b"]]))
print(layers.HashedCrossing(5)(pair).numpy().ravel())
print(layers.HashedCrossing(5, output_mode="one_hot")(pair).numpy())
out = layers.HashedCrossing(5)((tf.constant(1), tf.constant("a")))
print(out.numpy(), out.dtype)
print(layers.HashedCrossing(5, output_mode="one_hot")((tf.constant(1), tf.constant("a"))))
words = ["", "alpha", "seventeen letters", "x" * 40,
         "a much longer string, over sixty-four bytes, for the loop"]
print(layers.HashedCrossing(10 ** 9)((np.array(words), np.array([0, -1, 2 ** 40, -(2 ** 62), 7]))).numpy())
layer = layers.HashedCrossing(97)
print(tf.function(lambda a, b: layer((a, b)))(tf.constant([5, 6, 7]), tf.constant([1, 2, 3])).numpy())
data = tf.data.Dataset.from_tensor_slices({"a": [1, 2, 3], "b": ["x", "y", "z"]})
print([int(v) for v in data.map(lambda f: layers.HashedCrossing(11)((f["a"], f["b"])))])
print(layers.HashedCrossing(5, name="h").get_config())
print(layers.HashedCrossing(7, output_mode="one_hot", name="h").get_config())
print(layers.HashedCrossing(5, output_mode="one_hot").compute_output_shape(((None, 1), (None, 1))))
for make in [lambda: layers.HashedCrossing(5)(np.array([1])),
             lambda: layers.HashedCrossing(5)([np.array([1])]),
             lambda: layers.HashedCrossing(5)((np.array([1.0]), np.array([2]))),
             lambda: layers.HashedCrossing(5)((np.array([[1, 2]]), np.array([[2, 3]]))),
             lambda: layers.HashedCrossing(5)((np.array([1, 2]), np.array([2]))),
             lambda: layers.HashedCrossing(5, output_mode="multi_hot")]:
    try:
        make()
    except ValueError:
        print("ValueError")
