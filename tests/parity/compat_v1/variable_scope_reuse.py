"""The lecture's variable sharing: one set of weights for two inputs, regularized once (0.16)."""
import tensorflow as tf

v1 = tf.compat.v1


def dense(x):
    with v1.variable_scope("shared", reuse=v1.AUTO_REUSE):
        w = v1.get_variable("w", shape=[2, 2], initializer=v1.constant_initializer(0.2),
                            regularizer=lambda t: tf.reduce_sum(tf.square(t)))
        b = v1.get_variable("b", shape=[2], initializer=v1.zeros_initializer())
    return tf.matmul(x, w) + b


with tf.Graph().as_default():
    x_a = v1.placeholder(tf.float32, shape=[None, 2], name="x_a")
    x_b = v1.placeholder(tf.float32, shape=[None, 2], name="x_b")
    out_a = dense(x_a)
    out_b = dense(x_b)
    reg_loss = v1.losses.get_regularization_loss()
    print(repr(out_a), repr(out_b), repr(reg_loss))
    print(v1.global_variables())
    print(len(v1.trainable_variables()))
    with v1.Session() as sess:
        sess.run(v1.global_variables_initializer())
        feeds = {x_a: [[1.0, 2.0]], x_b: [[3.0, 4.0], [5.0, 6.0]]}
        print(sess.run([out_a, out_b, reg_loss], feed_dict=feeds))
    try:
        with v1.variable_scope("shared"):
            v1.get_variable("w", shape=[2, 2])
    except ValueError as e:
        print("no reuse:", type(e).__name__)
    try:
        with v1.variable_scope("shared", reuse=True):
            v1.get_variable("missing", shape=[1])
    except ValueError as e:
        print("reuse missing:", type(e).__name__)
