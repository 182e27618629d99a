"""A Variable created on the first call only: traced twice on that call, once never again."""
import tensorflow as tf


class Counter(tf.Module):
    def __init__(self):
        self.v = None

    @tf.function
    def __call__(self, x):
        print("trace")
        if self.v is None:
            self.v = tf.Variable(0.0)
        self.v.assign_add(x)
        return self.v.read_value()

c = Counter()
print(c(tf.constant(1.0)))
print(c(tf.constant(2.0)))
print(c.__call__.experimental_get_tracing_count())
print(c.v.numpy())
