"""compat.v1 placeholder/Session graph, the TF1 style the lectures compare with."""
import tensorflow as tf

g = tf.Graph()
with g.as_default():
    x = tf.compat.v1.placeholder(tf.float32, shape=[None])
    y = x * 2 + 1
    with tf.compat.v1.Session(graph=g) as sess:
        print(sess.run(y, feed_dict={x: [1.0, 2.0]}))
print(tf.compat.v1.executing_eagerly_outside_functions())
