"""A grad_fn that returns None for an input: no gradient flows back along it (None where no other
path reaches the source), eagerly and inside a function."""
import tensorflow as tf


@tf.custom_gradient
def f(x, y):
    def grad(dy):
        return dy * 2.0, None
    return x * y, grad


@tf.custom_gradient
def only_none(x):
    def grad(dy):
        return None
    return x * x, grad


x = tf.constant(3.0)
y = tf.constant(4.0)
with tf.GradientTape(persistent=True) as t:
    t.watch([x, y])
    z = f(x, y)
    w = z + y * 5.0
    alone = only_none(x)
    plus = only_none(x) + x
print(t.gradient(z, [x, y]))
print(t.gradient(w, [x, y]))
print(t.gradient(z, y, unconnected_gradients="zero"))
print(t.gradient(alone, x), t.gradient(plus, x))


@tf.function
def staged(x, y):
    with tf.GradientTape() as inner:
        inner.watch([x, y])
        z = f(x, y)
    return inner.gradient(z, [x, y])


print(staged(x, y))
