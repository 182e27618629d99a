import sys

import tensorflow as tf

tf.print((3,), [(1, 2)], ((4,),), (), output_stream=sys.stdout)
tf.print((tf.constant(1),), {"a": (1,)}, output_stream=sys.stdout)
for shape in [(2, 0), (0, 2), (1, 0), (2, 0, 3), (2, 3, 0), (0,)]:
    print(shape)
    tf.print(tf.ones(shape), output_stream=sys.stdout)


@tf.function
def f(x):
    tf.print((x,), tf.zeros((2, 0)), output_stream=sys.stdout)
    return x


f(tf.constant(1))
