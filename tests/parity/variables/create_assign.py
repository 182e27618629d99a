"""Creating a Variable and updating it with assign, assign_add, assign_sub."""
import tensorflow as tf

v = tf.Variable([1.0, 2.0])
print(v.numpy(), v.dtype, v.shape, v.trainable)
v.assign([3.0, 4.0])
print(v.numpy())
v.assign_add([1.0, 1.0])
print(v.numpy())
v.assign_sub([0.5, 0.5])
print(v.numpy())
r = v.assign([0.0, 1.0])
print(r.numpy())
print(tf.Variable(3).dtype, tf.Variable(3.0).dtype)
