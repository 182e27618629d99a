"""Integer division and remainder by zero, and integers to negative powers, raise (also in a function)."""
import tensorflow as tf


def report(name, fn):
    try:
        print(name, fn())
    except Exception as e:
        print(name, type(e).__name__, isinstance(e, tf.errors.OpError))


a = tf.constant([7, 8])
b = tf.constant([2, 0])
report("//", lambda: a // b)
report("%", lambda: a % b)
report("floordiv", lambda: tf.math.floordiv(a, b))
report("floormod", lambda: tf.math.floormod(a, b))
report("truncatediv", lambda: tf.truncatediv(a, b))
report("int64 //", lambda: tf.constant(7, tf.int64) // 0)
report("rfloordiv", lambda: 7 // tf.constant(0))
report("ok", lambda: a // tf.constant([2, 3]))
report("float //", lambda: tf.constant(7.0) // 0.0)
report("float /", lambda: a / b)
report("pow", lambda: tf.constant(2) ** -1)
report("pow array", lambda: tf.constant([2, 3]) ** tf.constant([1, -1]))
report("pow zero", lambda: tf.constant(2) ** 0)
report("pow float", lambda: tf.constant(2.0) ** -1)


@tf.function
def divide(x, y):
    return x // y


report("function ok", lambda: divide(a, tf.constant([2, 3])))
report("function", lambda: divide(a, b))
