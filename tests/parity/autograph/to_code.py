"""autograph.to_code returns Python source text."""
import tensorflow as tf


def f(x):
    if x > 0:
        x = x * 2
    return x

code = tf.autograph.to_code(f)
print(type(code).__name__)
print("def " in code)
print(tf.autograph.to_graph(f) is not None)
tf.autograph.set_verbosity(0)
print(tf.autograph.experimental.do_not_convert(f)(3))
