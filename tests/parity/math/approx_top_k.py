"""tf.math.approx_max_k / approx_min_k on a CPU: exact top-k on the last axis, no kernel otherwise."""
import tensorflow as tf

x = tf.constant([[1.0, 5.0, 3.0, 5.0, 0.5], [2.0, -1.0, 7.0, 7.0, 9.0]])
values, indices = tf.math.approx_max_k(x, 2)
print(values, indices)
print(tf.nn.approx_max_k(tf.constant([3.0, 1.0, 4.0]), 2))
with tf.GradientTape() as tape:
    tape.watch(x)
    y = tf.reduce_sum(tf.math.approx_max_k(x, 2).values * tf.constant([[1.0, 2.0], [3.0, 4.0]]))
print(tape.gradient(y, x))
for label, fn in [
    ("min", lambda: tf.math.approx_min_k(x, 3)),
    ("axis 0", lambda: tf.math.approx_max_k(x, 1, reduction_dimension=0)),
    ("int", lambda: tf.math.approx_max_k(tf.constant([[3, 1, 2]]), 2)),
    ("k too big", lambda: tf.math.approx_max_k(x, 6)),
]:
    try:
        fn()
        print(label, "ok")
    except Exception as e:  # noqa: BLE001 - the class is what is compared
        print(label, type(e).__name__)
