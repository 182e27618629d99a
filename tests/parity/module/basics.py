"""A tf.Module finds its Variables in attributes."""
import tensorflow as tf


class Dense(tf.Module):
    def __init__(self, in_features, out_features, name=None):
        super().__init__(name=name)
        self.w = tf.Variable(tf.ones([in_features, out_features]), name="w")
        self.b = tf.Variable(tf.zeros([out_features]), name="b")

    def __call__(self, x):
        return tf.nn.relu(x @ self.w + self.b)

d = Dense(3, 2, name="dense")
print(d(tf.constant([[1.0, 2.0, 3.0]])))
print(d.name)
print([v.name for v in d.trainable_variables])
print([v.name for v in d.variables])
print(len(d.submodules))
