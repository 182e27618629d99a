"""Static and dynamic shapes: tf.shape, TensorShape, rank, size."""
import tensorflow as tf

x = tf.zeros((2, 3, 4))
print(x.shape)
print(x.shape.as_list())
print(tf.shape(x))
print(tf.rank(x))
print(tf.size(x))
print(x.shape[0], x.shape[-1])
print(len(x))
print(tf.TensorShape([None, 3]))
print(tf.TensorShape([None, 3]).rank, tf.TensorShape(None).rank)
print(tf.TensorShape([2, 3]).num_elements())
print(tf.TensorShape([2, 3]) == (2, 3))
print(tf.TensorShape([2, None]).is_fully_defined())
print(tf.TensorShape([2, None]).is_compatible_with([2, 5]))
