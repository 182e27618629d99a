"""element_shape and infer_shape."""
import tensorflow as tf

ta = tf.TensorArray(tf.float32, size=2, element_shape=tf.TensorShape([3]))
print(ta.element_shape)
ta = ta.write(0, tf.ones(3)).write(1, tf.zeros(3))
print(ta.stack().shape)
tb = tf.TensorArray(tf.float32, size=2)
tb = tb.write(0, tf.ones((2, 2)))
print(tb.element_shape)
try:
    tb.write(1, tf.ones(3))
except Exception as e:
    print(type(e).__name__)
