"""unstack, gather, scatter, concat."""
import tensorflow as tf

ta = tf.TensorArray(tf.float32, size=4).unstack(tf.constant([10.0, 20.0, 30.0, 40.0]))
print(ta.gather([3, 0]))
ta2 = tf.TensorArray(tf.float32, size=3).scatter([2, 0, 1], tf.constant([[1.0], [2.0], [3.0]]))
print(ta2.stack())
ta3 = tf.TensorArray(tf.int32, size=2, infer_shape=False)
ta3 = ta3.write(0, [1, 2]).write(1, [3])
print(ta3.concat())
