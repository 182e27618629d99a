"""Submodules and their Variables are collected."""
import tensorflow as tf


class Linear(tf.Module):
    def __init__(self, n, name=None):
        super().__init__(name=name)
        self.w = tf.Variable(tf.ones([n]), name="w")

class Model(tf.Module):
    def __init__(self):
        super().__init__()
        self.first = Linear(2, name="first")
        self.second = Linear(3, name="second")
        self.scale = tf.Variable(2.0, trainable=False, name="scale")

m = Model()
print(m.name)
print([s.name for s in m.submodules])
print([v.name for v in m.variables])
print([v.name for v in m.trainable_variables])
print(len(m.non_trainable_variables) if hasattr(m, "non_trainable_variables") else "n/a")
