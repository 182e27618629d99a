"""tf.py_function with a plain dtype for Tout inside a tf.function: it runs on every call."""
import tensorflow as tf

external = []


@tf.function
def p(x):
    print("tracing p")
    tf.py_function(external.append, [x], Tout=[])
    y = tf.py_function(lambda a: a * 2, [x], Tout=tf.float32)
    return y + 1


print(p(tf.constant(3.0)))
print(p(tf.constant(4.0)))
print(len(external), [float(e) for e in external])
print(p.experimental_get_tracing_count())


@tf.function
def total(x):
    return tf.py_function(lambda a: tf.reduce_sum(a), [x], Tout=tf.float32)


print(total(tf.constant([1.0, 2.0])))
print(total(tf.constant([1.0, 2.0, 3.0])))
