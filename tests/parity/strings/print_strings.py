"""tf.print of string tensors: a lone scalar as it is, otherwise quoted and C-escaped, as TF."""
import sys

import tensorflow as tf


def p(*args):
    tf.print(*args, output_stream=sys.stdout)


p(tf.constant("ada"))
p(tf.constant(["a", "b"]))
p("x", tf.constant("y"), {"k": tf.constant("v")})
p([tf.constant("a"), "b"])
p(tf.constant([["a", "b"], ["c", "d"]]))
p(tf.constant("a"), tf.constant("b"))
p({"k": "v"}, ["x"], "plain")
p(tf.constant('q"uote'), 1)
p(tf.constant("é"), tf.constant(["é", "x"]))
p(tf.constant("it's\\ a\nb\tc"), 1)
p(tf.constant(""))


@tf.function
def f(s):
    p(s, "lit")
    p(tf.constant(["p", "q"]))
    p(s)
    return s


f(tf.constant("z"))
