"""Module._flatten with paths and predicates, containers of variables and modules, bad dict keys."""
import tensorflow as tf


class Leaf(tf.Module):
    def __init__(self, k, name=None):
        super().__init__(name=name)
        self.k = tf.Variable(float(k), name="k")


class Holder(tf.Module):
    def __init__(self):
        super().__init__()
        self.tup = (tf.Variable(1.0, name="t0"), Leaf(1, name="leaf_in_tuple"))
        self.lst = [Leaf(2), [tf.Variable(2.0, name="nested")]]
        self.dct = {"z": tf.Variable(3.0, name="z"), "a": Leaf(3, name="a_leaf")}
        self.same = self.tup[0]
        self._private = tf.Variable(5.0, name="private")
        self.frozen = tf.Variable(6.0, trainable=False, name="frozen")
        self.nothing = None


h = Holder()
print([v.name for v in h.variables])
print([v.name for v in h.trainable_variables])
print([v.name for v in h.non_trainable_variables])
print([m.name for m in h.submodules])
is_variable = lambda x: isinstance(x, tf.Variable)  # noqa: E731
for path, v in h._flatten(predicate=is_variable, with_path=True):
    print(path, v.name)
print([m.name for m in h._flatten(recursive=False, predicate=lambda x: isinstance(x, tf.Module))])
h.bad = {"z": tf.Variable(1.0), 1: tf.Variable(2.0)}
try:
    h.variables
except ValueError as e:
    print(type(e).__name__, str(e)[:45], type(e.__cause__).__name__)
