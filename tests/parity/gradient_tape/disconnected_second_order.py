"""A gradient that uses no watched value has no second derivative (None); one that does, has."""
import tensorflow as tf

x = tf.Variable(2.0)
a = tf.Variable(3.0)
w = tf.Variable([1.0, 2.0])
c = tf.constant([3.0, 4.0])


def second(build, sources, **kwargs):
    with tf.GradientTape() as outer:
        with tf.GradientTape() as inner:
            y = build()
        g = inner.gradient(y, sources)
    return g, outer.gradient(g, sources, **kwargs)


print("linear", second(lambda: 3 * x, x))
print("plus constant", second(lambda: x + 5.0, x))
print("reduce_sum", second(lambda: tf.reduce_sum(w * c), w))
print("square", second(lambda: tf.reduce_sum(w * w), w))
print("sin", second(lambda: tf.sin(x), x))
print("relu", second(lambda: tf.nn.relu(x), x))
print("zero", second(lambda: 3 * x, x, unconnected_gradients="zero")[1])
print("cross", second(lambda: a * x, [x, a]))

with tf.GradientTape(persistent=True) as outer:
    with tf.GradientTape() as inner:
        y = a * x + x * x
    gx, ga = inner.gradient(y, [x, a])
    total = gx + ga
print("gx", outer.gradient(gx, [x, a]))
print("ga", outer.gradient(ga, [x, a]))
print("total", outer.gradient(total, [x, a]))
del outer

layer = tf.keras.layers.Dense(3, kernel_initializer="ones", bias_initializer="zeros")
inp = tf.constant([[1.0, 2.0]])
with tf.GradientTape() as outer:
    outer.watch(inp)
    with tf.GradientTape() as inner:
        inner.watch(inp)
        out = layer(inp)
    g = inner.gradient(out, inp)
print("dense", g, outer.gradient(g, inp))


@tf.function
def in_function():
    with tf.GradientTape() as outer:
        with tf.GradientTape() as inner:
            y = tf.sin(x)
        g = inner.gradient(y, x)
    return outer.gradient(g, x)


print("function", in_function())
