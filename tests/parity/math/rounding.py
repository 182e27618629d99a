"""abs, sign, round (half to even), ceil, floor."""
import tensorflow as tf

x = tf.constant([-2.5, -1.5, -0.5, 0.5, 1.5, 2.5, 2.7])
print(tf.abs(x))
print(tf.sign(x))
print(tf.round(x))
print(tf.math.ceil(x))
print(tf.math.floor(x))
print(tf.math.rint(x))
print(tf.abs(tf.constant([-3, 4])))
