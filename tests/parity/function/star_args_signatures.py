"""Signatures of functions with *args and **kwargs: parameter kinds and the one-line form."""
import tensorflow as tf


@tf.function
def f(x, y=2, *args):
    return x


f(1)
print(f.pretty_printed_concrete_signatures())


class M(tf.Module):
    @tf.function
    def g(self, x, *rest, k=1):
        return x


m = M()
m.g(tf.constant(1.0), k=3)
print(m.g.pretty_printed_concrete_signatures())


@tf.function
def h(x, **kw):
    return x


h(1, z=2)
print(h.pretty_printed_concrete_signatures())
print(h.get_concrete_function(1, z=2).pretty_printed_signature(verbose=False))
print(repr(h.get_concrete_function(1, z=2)).split(" at ")[0])
