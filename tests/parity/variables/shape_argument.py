"""constant(..., shape=) broadcasts; Variable(..., shape=) must be compatible."""
import tensorflow as tf

print(tf.constant([1, 2, 3, 4], shape=(2, 2)))
print(tf.constant(1, shape=(2, 3)))
try:
    tf.Variable([1, 2, 3, 4], shape=(2, 2))
except Exception as e:
    print(type(e).__name__, isinstance(e, ValueError))
v = tf.Variable([1.0, 2.0], shape=tf.TensorShape(None))
print(v.shape)
v.assign([1.0, 2.0, 3.0])
print(v.numpy(), v.shape)
