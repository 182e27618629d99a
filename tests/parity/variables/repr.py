"""The repr and str of Variables and the names eager Variables get."""
import tensorflow as tf

v = tf.Variable([1.0, 2.0])
print(v)
print(repr(v))
w = tf.Variable(5)
print(w)
print(v.name, w.name)
u = tf.Variable(1.0, name="weight")
print(u.name)
print(tf.Variable(tf.zeros((2, 2))))
