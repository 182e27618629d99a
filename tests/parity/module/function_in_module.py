"""A Module with a tf.function method."""
import tensorflow as tf


class Adder(tf.Module):
    def __init__(self):
        super().__init__()
        self.total = tf.Variable(0.0)

    @tf.function(input_signature=[tf.TensorSpec([], tf.float32)])
    def add(self, x):
        self.total.assign_add(x)
        return self.total

a = Adder()
print(a.add(tf.constant(1.0)))
print(a.add(tf.constant(2.5)))
print(a.total.numpy())
print(a.add.experimental_get_tracing_count())
