import tensorflow as tf


def show(name, fn):
    try:
        print(name, fn())
    except Exception as e:
        print(name, "raised", type(e).__name__)


n = tf.constant(3)
ta = tf.TensorArray(tf.float32, size=n)
for i in range(3):
    ta = ta.write(i, float(i) * 2)
show("stack", ta.stack)
show("size", ta.size)
show("concat of scalars", ta.concat)
grow = tf.TensorArray(tf.float32, size=0, dynamic_size=True)
for i in range(4):
    grow = grow.write(i, [float(i), 1.0])
show("dynamic stack", grow.stack)
show("dynamic size", grow.size)
show("concat", grow.concat)
show("gather", lambda: grow.gather([0, 2]))
show("out of range", lambda: tf.TensorArray(tf.float32, size=2).write(5, 1.0))
show("empty", lambda: tf.TensorArray(tf.float32, size=0).stack())
show("empty with shape", lambda: tf.TensorArray(tf.float32, size=0, element_shape=[3]).stack())
show("split", lambda: tf.TensorArray(tf.float32, size=2).split([1.0, 2, 3], [1, 2]).concat())


@tf.function
def squares(n):
    ta = tf.TensorArray(tf.float32, size=n)
    for i in tf.range(n):
        ta = ta.write(i, tf.cast(i, tf.float32) ** 2)
    return ta.stack(), ta.size()


show("function", lambda: squares(tf.constant(4)))


@tf.function
def fixed():
    ta = tf.TensorArray(tf.float32, size=3, element_shape=[2]).unstack(tf.ones([3, 2]))
    print("traced:", ta.element_shape, ta.size())
    return ta.gather([2, 0]), ta.size()


show("fixed", fixed)
