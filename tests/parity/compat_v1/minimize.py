"""TF1 training: GradientDescentOptimizer.minimize returns an op; run it with the loss in a loop."""
import numpy as np
import tensorflow as tf

v1 = tf.compat.v1
xs = np.array([[0.0], [1.0], [2.0], [3.0]], dtype=np.float32)
ys = 3.0 * xs + 2.0
with tf.Graph().as_default():
    x = v1.placeholder(tf.float32, shape=[None, 1])
    y = v1.placeholder(tf.float32, shape=[None, 1])
    w = tf.Variable([[0.0]], name="w")
    b = tf.Variable([0.0], name="b")
    loss = tf.reduce_mean(tf.square(tf.matmul(x, w) + b - y))
    step = v1.train.GradientDescentOptimizer(0.05).minimize(loss)
    print(step.name, step.type)
    with v1.Session() as sess:
        sess.run(v1.global_variables_initializer())
        for i in range(5):
            _, value = sess.run([step, loss], feed_dict={x: xs, y: ys})
            print(i, round(float(value), 4))
        print([np.round(v, 4) for v in sess.run([w, b])])
