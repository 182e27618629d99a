"""Variables in lists and dicts of a Module are found."""
import tensorflow as tf


class M(tf.Module):
    def __init__(self):
        super().__init__()
        self.layers = [tf.Variable(1.0, name="a"), tf.Variable(2.0, name="b")]
        self.table = {"y": tf.Variable(3.0, name="y"), "x": tf.Variable(4.0, name="x")}

m = M()
print([v.name for v in m.variables])
print([float(v.numpy()) for v in m.trainable_variables])
