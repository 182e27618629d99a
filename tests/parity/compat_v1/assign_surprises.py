"""TF1 Variables: values live in the Session; an assign op changes nothing until it is run."""
import tensorflow as tf

v1 = tf.compat.v1
with tf.Graph().as_default():
    w = tf.Variable(10, name="w")
    grow = w.assign(100)
    print(repr(w), repr(grow), w.initializer.name, w.initializer.type)
    with v1.Session() as sess:
        try:
            sess.run(w)
        except tf.errors.FailedPreconditionError as e:
            print("uninitialised:", type(e).__name__, "w" in str(e))
        sess.run(w.initializer)
        print(sess.run(w))  # the assign op was built but never run
        print(sess.run(grow), sess.run(w))
    with v1.Session() as sess:  # a new session: w has no value again
        sess.run(v1.global_variables_initializer())
        print(sess.run(w))
        double = w.assign(2 * w)
        add_five = w.assign_add(5)
        print(sess.run([double, add_five]))
        print(sess.run(w))
        print(sess.run(add_five), sess.run(w))
