"""random.shuffle keeps elements; categorical gives valid class indices."""
import tensorflow as tf

tf.random.set_seed(0)
x = tf.random.shuffle(tf.range(10))
print(sorted(x.numpy().tolist()))
c = tf.random.categorical(tf.math.log([[0.5, 0.5, 0.0]]), 20)
print(c.shape, c.dtype, bool(tf.reduce_all(c < 2)))
