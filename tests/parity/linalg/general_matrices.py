"""eig, eigvals, sqrtm, logm and matrix_rank on small matrices, eagerly, in a tf.function and
under a tape; errors for integer and non-square input."""
import tensorflow as tf

a = tf.constant([[4.0, 1.0], [2.0, 3.0]])
spd = tf.constant([[4.0, 2.0], [2.0, 3.0]])

values, vectors = tf.linalg.eig(a)
print(values.dtype, vectors.dtype)
print(tf.math.real(values), tf.math.imag(values))
print(tf.math.real(vectors))
print(tf.linalg.eigvals(tf.cast(a, tf.float64)).dtype)
print(tf.math.real(tf.eigvals(spd)))
root = tf.linalg.sqrtm(spd)
print(root)
print(tf.matmul(root, root))
print(tf.matrix_square_root(a))
log = tf.linalg.logm(tf.complex(spd, tf.zeros_like(spd)))
print(log.dtype, tf.math.real(log), tf.math.imag(log))
print(tf.math.real(tf.linalg.expm(log)))
print(tf.linalg.matrix_rank(tf.constant([[1.0, 2.0], [2.0, 4.0]])))
print(tf.linalg.matrix_rank(tf.eye(3, batch_shape=[2])))
print(tf.linalg.matrix_rank(tf.constant([[1.0, 0.0], [0.0, 1e-3]]), tol=0.01))
print(tf.linalg.l2_normalize(tf.constant([3.0, 4.0])))


@tf.function
def traced(x):
    return tf.linalg.sqrtm(x), tf.linalg.eigvals(x), tf.linalg.matrix_rank(x)


root, eigenvalues, rank = traced(spd)
print(root, tf.math.real(eigenvalues), rank)

with tf.GradientTape(persistent=True) as tape:
    tape.watch(spd)
    y1 = tf.reduce_sum(tf.linalg.sqrtm(spd))
    y2 = tf.reduce_sum(tf.math.real(tf.linalg.eigvals(spd)))
    y3 = tf.cast(tf.linalg.matrix_rank(spd), tf.float32)
print(tape.gradient(y1, spd))
print(tape.gradient(y2, spd))
print(tape.gradient(y3, spd))

for label, fn in [
    ("sqrtm int", lambda: tf.linalg.sqrtm(tf.constant([[1, 2], [3, 4]]))),
    ("sqrtm non-square", lambda: tf.linalg.sqrtm(tf.ones((2, 3)))),
    ("eig non-square", lambda: tf.linalg.eig(tf.ones((2, 3)))),
    ("logm real", lambda: tf.linalg.logm(spd)),
    ("matrix_rank int", lambda: tf.linalg.matrix_rank(tf.constant([[1, 2], [2, 4]]))),
]:
    try:
        fn()
        print(label, "ok")
    except Exception as e:  # noqa: BLE001 - the class is what is compared
        print(label, type(e).__name__)
