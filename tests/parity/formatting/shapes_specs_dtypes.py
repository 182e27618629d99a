"""repr and str of TensorShape, TensorSpec, DType."""
import tensorflow as tf

s = tf.TensorShape([None, 3])
print(s, repr(s))
print(tf.TensorShape([]), repr(tf.TensorShape(None)))
spec = tf.TensorSpec([None, 2], tf.float32, name="x")
print(spec)
print(repr(tf.TensorSpec([3], tf.int32)))
print(tf.TensorSpec.from_tensor(tf.constant([1, 2])))
print(repr(tf.int32), str(tf.int32))
print(tf.TensorShape([2, 3]).as_list(), tf.TensorShape([2, 3])[1])
print(tf.ones((2, 3)).shape)
