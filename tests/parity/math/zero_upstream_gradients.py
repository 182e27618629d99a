"""Gradients of sqrt, rsqrt and reciprocal where the incoming gradient is 0 (TF's kernels give 0)."""
import tensorflow as tf

x = tf.constant([0., -1., 4., 0.25])
ops = [("sqrt", tf.sqrt), ("rsqrt", tf.math.rsqrt), ("reciprocal", tf.math.reciprocal),
       ("tanh", tf.tanh), ("sigmoid", tf.sigmoid)]
for name, f in ops:
    def g(x, f=f):
        return tf.where(x > 0, f(x), 0.)

    with tf.GradientTape() as tape:
        tape.watch(x)
        y = g(x)
    print(name, "tape", tape.gradient(y, x).numpy())

    @tf.function
    def grad_in_function(x, g=g):
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = g(x)
        return tape.gradient(y, x)

    print(name, "function", grad_in_function(x).numpy())

    with tf.GradientTape() as outer:
        outer.watch(x)
        with tf.GradientTape() as inner:
            inner.watch(x)
            y = g(x)
        d1 = inner.gradient(y, x)
    print(name, "second", outer.gradient(d1, x).numpy())

    with tf.autodiff.ForwardAccumulator(x, tf.constant([1., 1., 1., 0.])) as acc:
        y = g(x)
    print(name, "forward", acc.jvp(y).numpy())
    with tf.autodiff.ForwardAccumulator(x, tf.constant([0., 0., 1., 0.])) as acc:
        z = f(x)
    print(name, "forward, zero tangents", acc.jvp(z).numpy())

v = tf.Variable([0., 9.])
with tf.GradientTape() as tape:
    loss = tf.reduce_sum(tf.where(v > 0, tf.sqrt(v), 0.) + tf.math.rsqrt(v + 1.))
print("variable", tape.gradient(loss, v).numpy())
x64 = tf.constant([0., 1.], tf.float64)
with tf.GradientTape() as tape:
    tape.watch(x64)
    y = tf.where(x64 > 0, tf.sqrt(x64), tf.zeros_like(x64))
print("float64", tape.gradient(y, x64).numpy())
