"""A grad_fn's None: for a Variable in variables=, in a Jacobian, and inside a staged function
(zeros at the function's boundary, for the inner op's input, not the function's)."""
import tensorflow as tf

v1 = tf.Variable(2.0)
v2 = tf.Variable(5.0)


@tf.custom_gradient
def g(x):
    def grad(dy, variables=None):
        return dy * v1 * v2, [dy * x * v2, None]
    return x * v1 * v2, grad


@tf.custom_gradient
def first_none(a, b):
    def grad(dy):
        return None, dy * a
    return a * b, grad


@tf.function
def swapped(a, b):
    return first_none(b, a) + a * 0.0


x = tf.constant(3.0)
xv = tf.constant([1.0, 2.0])
with tf.GradientTape(persistent=True) as t:
    t.watch([x, xv])
    y = g(x) * 3.0
    cut = first_none(xv, tf.constant([1.0, 1.0]))
    kept = first_none(xv, xv * 2.0)
    s = swapped(x, x * 2.0)
print(t.gradient(y, [x, v1, v2]))
print(t.jacobian(cut, xv))
print(t.jacobian(cut, xv, unconnected_gradients="zero"))
print(t.jacobian(kept, xv))
print(t.gradient(s, x))
