"""Variables of a saved Module come back with their values and can be assigned."""
import tensorflow as tf

m = tf.Module()
m.v = tf.Variable([1.0, 2.0])
m.f = tf.function(lambda x: x + m.v, input_signature=[tf.TensorSpec([2], tf.float32)])
tf.saved_model.save(m, "vm")
loaded = tf.saved_model.load("vm")
print(loaded.v.numpy())
loaded.v.assign([10.0, 20.0])
print(loaded.f(tf.constant([1.0, 1.0])))
