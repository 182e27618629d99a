"""Module name scopes and with_name_scope."""
import tensorflow as tf


class M(tf.Module):
    def __init__(self):
        super().__init__(name="outer")
        with self.name_scope:
            self.v = tf.Variable(1.0, name="v")

    @tf.Module.with_name_scope
    def __call__(self, x):
        return x * self.v

m = M()
print(m.v.name)
print(m.name_scope.name)
print(m(tf.constant(2.0)))
print(tf.Module().name, tf.Module(name="custom").name)
