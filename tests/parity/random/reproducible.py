"""The same global and op seeds give the same values."""
import tensorflow as tf

tf.random.set_seed(7)
a = tf.random.uniform((3,), seed=1)
tf.random.set_seed(7)
b = tf.random.uniform((3,), seed=1)
print(bool(tf.reduce_all(a == b)))
g1 = tf.random.Generator.from_seed(3)
g2 = tf.random.Generator.from_seed(3)
print(bool(tf.reduce_all(g1.normal((4,)) == g2.normal((4,)))))
s1 = tf.random.stateless_uniform((2,), seed=(1, 2))
s2 = tf.random.stateless_uniform((2,), seed=(1, 2))
print(bool(tf.reduce_all(s1 == s2)), s1.shape)
