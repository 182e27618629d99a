"""polyval, lgamma, digamma, bessel, sqrt of negative."""
import tensorflow as tf

print(tf.math.polyval([1.0, 2.0, 3.0], tf.constant(2.0)))
print(tf.math.lgamma(tf.constant([1.0, 5.0])))
print(tf.math.digamma(tf.constant(1.0)))
print(tf.sqrt(tf.constant(-1.0)))
print(tf.math.floor(tf.constant(-0.5)))
print(tf.math.scalar_mul(3, tf.constant([1.0, 2.0])))
print(tf.math.reduce_all(tf.constant([], dtype=tf.bool)))
print(tf.math.reduce_sum(tf.zeros((0, 3)), axis=0))
