"""sigmoid, tanh, softplus, relu and friends."""
import tensorflow as tf

x = tf.constant([-2.0, 0.0, 2.0])
print(tf.math.sigmoid(x))
print(tf.math.tanh(x))
print(tf.math.softplus(x))
print(tf.nn.relu(x))
print(tf.math.softsign(x))
print(tf.math.log_sigmoid(x))
print(tf.math.erf(x))
