"""cholesky_solve and the tridiagonal solve and product in their three formats, with gradients."""
import tensorflow as tf

spd = tf.constant([[4.0, 2.0], [2.0, 3.0]])
rhs = tf.constant([[1.0], [2.0]])
chol = tf.linalg.cholesky(spd)
x = tf.linalg.cholesky_solve(chol, rhs)
print(x)
print(tf.matmul(spd, x))

diagonals = tf.constant([[1.0, 2.0, 0.0], [4.0, 5.0, 6.0], [0.0, 7.0, 8.0]])
b = tf.constant([1.0, 2.0, 3.0])
print(tf.linalg.tridiagonal_solve(diagonals, b))
print(tf.linalg.tridiagonal_solve((diagonals[0], diagonals[1], diagonals[2]), b, diagonals_format="sequence"))
matrix = tf.constant([[4.0, 1.0, 0.0], [1.0, 4.0, 1.0], [0.0, 1.0, 4.0]])
print(tf.linalg.tridiagonal_solve(matrix, tf.constant([[1.0], [2.0], [3.0]]), diagonals_format="matrix"))
print(tf.linalg.tridiagonal_solve(tf.stack([diagonals, 2 * diagonals]), tf.ones((2, 3, 2))))
print(tf.linalg.tridiagonal_solve(diagonals, tf.constant([[1.0, 2.0, 3.0]]), transpose_rhs=True))
print(tf.linalg.tridiagonal_matmul(diagonals, tf.constant([[1.0], [2.0], [3.0]])))
print(tf.linalg.tridiagonal_matmul(matrix, tf.ones((3, 2)), diagonals_format="matrix"))
print(tf.function(lambda d, r: tf.linalg.tridiagonal_solve(d, r))(diagonals, b))

with tf.GradientTape(persistent=True) as tape:
    tape.watch([spd, diagonals, b])
    y1 = tf.reduce_sum(tf.linalg.cholesky_solve(tf.linalg.cholesky(spd), rhs))
    y2 = tf.reduce_sum(tf.linalg.tridiagonal_solve(diagonals, b) * tf.constant([1.0, 2.0, 3.0]))
    y3 = tf.reduce_sum(tf.linalg.tridiagonal_matmul(diagonals, tf.reshape(b, (3, 1))))
print(tape.gradient(y1, spd))
print(tape.gradient(y2, diagonals))
print(tape.gradient(y2, b))
print(tape.gradient(y3, b))

for label, fn in [
    ("two diagonals", lambda: tf.linalg.tridiagonal_solve(tf.zeros((2, 3)), b)),
    ("rhs length", lambda: tf.linalg.tridiagonal_solve(diagonals, tf.ones((4,)))),
    ("format", lambda: tf.linalg.tridiagonal_solve(diagonals, b, diagonals_format="foo")),
    ("int", lambda: tf.linalg.tridiagonal_solve(tf.cast(diagonals, tf.int32), tf.cast(b, tf.int32))),
    ("mixed", lambda: tf.linalg.tridiagonal_solve(diagonals, tf.cast(b, tf.float64))),
    ("cholesky_solve shape", lambda: tf.linalg.cholesky_solve(chol, tf.ones((3, 1)))),
]:
    try:
        fn()
        print(label, "ok")
    except Exception as e:  # noqa: BLE001 - the class is what is compared
        print(label, type(e).__name__)
