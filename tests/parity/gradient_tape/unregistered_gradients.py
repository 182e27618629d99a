"""Ops TF registers no gradient for raise LookupError when a gradient passes through them; ops TF
marks not differentiable give None; nextafter passes the gradient to its first input."""
import tensorflow as tf

x = tf.constant([[4.0, 3.0], [6.0, 3.0]])
v = tf.constant([1.5, 2.7, 0.2, 2.7])
cases = {
    "lu": lambda: tf.linalg.lu(x)[0] * 2.0 + x,
    "lu_pivots": lambda: tf.cast(tf.linalg.lu(x)[1], tf.float32),
    "unique": lambda: tf.unique(v)[0],
    "unique_with_counts": lambda: tf.unique_with_counts(v)[0],
    "bincount": lambda: tf.math.bincount(tf.constant([0, 1, 1]), weights=v[:3]),
    "histogram": lambda: tf.histogram_fixed_width(v, [0.0, 3.0], nbins=3),
    "histogram_float": lambda: tf.cast(tf.histogram_fixed_width(v, [0.0, 3.0], nbins=3), tf.float32),
    "poisson": lambda: tf.random.poisson([2], v),
    "bitcast": lambda: tf.bitcast(v, tf.int32),
    "bitcast_float": lambda: tf.cast(tf.bitcast(v, tf.int32), tf.float32),
    "argmax": lambda: tf.math.argmax(v),
    "searchsorted": lambda: tf.cast(tf.searchsorted(tf.sort(v), v), tf.float32),
    "round": lambda: tf.round(v) + tf.floor(v) + tf.math.ceil(v),
    "nextafter": lambda: tf.math.nextafter(v, 0.0) * 2.0,
    "stop_lu": lambda: tf.stop_gradient(tf.linalg.lu(x)[0]) + x,
}
for name, fn in cases.items():
    with tf.GradientTape() as t:
        t.watch([x, v])
        out = fn()
        off_path = tf.linalg.lu(x)[0]
    try:
        grads = t.gradient(out, [x, v])
        print(name, [None if g is None else g.numpy().tolist() for g in grads])
    except LookupError as e:
        print(name, type(e).__name__, e)


@tf.function
def staged(m):
    with tf.GradientTape() as t:
        t.watch(m)
        y = tf.linalg.lu(m)[0]
    return t.gradient(y, m)


try:
    staged(x)
except Exception as e:
    print(type(e).__name__, str(e).splitlines()[-1].strip())
