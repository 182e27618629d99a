"""tf.function on methods traces once per instance."""
import tensorflow as tf


class Scale:
    def __init__(self, k):
        self.k = k

    @tf.function
    def __call__(self, x):
        print("trace k =", self.k)
        return x * self.k

a = Scale(2.0)
b = Scale(3.0)
print(a(tf.constant(1.0)), b(tf.constant(1.0)))
print(a(tf.constant(5.0)))
