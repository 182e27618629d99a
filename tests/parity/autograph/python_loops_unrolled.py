"""Python range loops and lists are unrolled during tracing."""
import tensorflow as tf


@tf.function
def f(x):
    outs = []
    for i in range(3):
        outs.append(x * i)
    return tf.stack(outs)

print(f(tf.constant(2.0)))

@tf.function
def g(xs):
    s = 0.0
    for x in xs:
        s += x
    return s

print(g([tf.constant(1.0), tf.constant(2.0)]))
print(g(tf.constant([1.0, 2.0, 3.0])))
