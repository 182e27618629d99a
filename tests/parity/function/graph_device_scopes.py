"""Inside a function, ops made in a tf.device block record the block's device spec (merged onto the
enclosing one), which their graph tensors print; tf.identity makes a node of its own."""
import tensorflow as tf


@tf.function
def f(x):
    for spec in ["/cpu:0", "cpu:0", "/CPU:0", "/device:CPU:0", "/job:localhost/replica:0/task:0/device:CPU:0",
                 "/job:localhost", "/task:0/cpu:0", "/cpu:*", "", None]:
        with tf.device(spec):
            print(repr(spec), repr((x * 2).device))
    with tf.device("/job:localhost/replica:0/task:0/device:CPU:0"):
        with tf.device("/cpu:0"):
            print("nested", (x + 1).device)
        with tf.device(None):
            print("nested none", repr((x + 1).device))
        y = tf.constant(3.0)
        print(y.device, y)
        v = tf.identity(x)
    print(v.device, repr((v + 1).device), repr(x.device))
    with tf.device("CPU:0"):
        print(x * 3)
    print(tf.identity(x), x, tf.identity(v + 1), tf.identity(x, name="kept"))
    return v


print(f(tf.constant(1.0)))
