"""relu6, leaky_relu, elu, selu, gelu, silu, l2_loss."""
import tensorflow as tf

x = tf.constant([-3.0, -0.5, 0.0, 0.5, 7.0])
print(tf.nn.relu6(x))
print(tf.nn.leaky_relu(x))
print(tf.nn.leaky_relu(x, alpha=0.1))
print(tf.nn.elu(x))
print(tf.nn.selu(x))
print(tf.nn.gelu(x))
print(tf.nn.gelu(x, approximate=True))
print(tf.nn.silu(x))
print(tf.nn.l2_loss(x))
