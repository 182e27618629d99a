"""TF1 graph: symbolic tensors with unique names, placeholders with None dims, nested fetches."""
import collections

import tensorflow as tf

v1 = tf.compat.v1
g = tf.Graph()
with g.as_default():
    print(tf.executing_eagerly(), v1.get_default_graph() is g)
    a = tf.constant(2.0)
    b = tf.constant(3.0)
    c = a + b
    d = a + b
    print(repr(a), repr(c), repr(d))
    x = v1.placeholder(tf.float32, shape=[None, 3])
    print(repr(x), x.name, x.op.type, c.op.type, x.graph is g)
    y = x * 2
    total = tf.reduce_sum(y, axis=1)
    mean = tf.reduce_mean(tf.square(x - 1.0))
    print(repr(y), repr(total), repr(mean))
    with v1.Session() as sess:
        print(sess.run(c))
        print(sess.run({"a": [c, (y, total)], "b": mean}, feed_dict={x: [[1.0, 2.0, 3.0]]}))
        Pair = collections.namedtuple("Pair", "first second")
        print(sess.run(Pair(c, total), feed_dict={x: [[1.0, 1.0, 1.0], [2.0, 2.0, 2.0]]}))
        try:
            sess.run(y)
        except tf.errors.InvalidArgumentError as e:
            print("unfed:", type(e).__name__, "Placeholder" in str(e))
        try:
            sess.run(y, feed_dict={x: [[1.0, 2.0]]})
        except ValueError as e:
            print("wrong shape:", type(e).__name__)
    try:
        sess.run(c)
    except RuntimeError as e:
        print("closed:", type(e).__name__)
print(tf.executing_eagerly())
