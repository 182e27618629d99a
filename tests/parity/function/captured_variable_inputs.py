import tensorflow as tf

w = tf.Variable([[1.0], [2.0]], name="w")
b = tf.Variable([0.5], name="b")
s = tf.Variable(2.0, name="s")
u = tf.Variable(3.0, name="u")


@tf.function
def f(x):
    y = tf.matmul(x, w) + b
    t = s.read_value() * 2
    u.assign_add(1.0)
    return y * t + u


cf = f.get_concrete_function(tf.TensorSpec([None, 2], tf.float32))
for t in cf.inputs:
    print(repr(t))
print(len(cf.captured_inputs), len(cf.variables))
print(cf(tf.constant([[1.0, 1.0]])))


class Scale(tf.Module):
    def __init__(self):
        self.k = tf.Variable(2.0)

    @tf.function(input_signature=[tf.TensorSpec([], tf.float32)])
    def __call__(self, x):
        return x * self.k + self.k


m = Scale()
print(m.__call__.get_concrete_function().inputs)
print(m(tf.constant(3.0)))
