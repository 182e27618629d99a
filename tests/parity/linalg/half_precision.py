import tensorflow as tf

# float16 and bfloat16 matrices: TensorFlow has no LAPACK-backed kernel for most of them
matrix = [[4.0, 1.0], [1.0, 3.0]]
ops = {
    "det": tf.linalg.det,
    "slogdet": lambda m: tf.linalg.slogdet(m)[1],
    "logdet": tf.linalg.logdet,
    "inv": tf.linalg.inv,
    "cholesky": tf.linalg.cholesky,
    "solve": lambda m: tf.linalg.solve(m, m),
    "triangular_solve": lambda m: tf.linalg.triangular_solve(m, m),
    "lstsq": lambda m: tf.linalg.lstsq(m, m),
    "eigh": lambda m: tf.linalg.eigh(m)[0],
    "eigvalsh": tf.linalg.eigvalsh,
    "svd": lambda m: tf.linalg.svd(m, compute_uv=False),
    "qr": lambda m: tf.linalg.qr(m)[1],
    "lu": lambda m: tf.linalg.lu(m)[0],
    "pinv": tf.linalg.pinv,
    "expm": tf.linalg.expm,
    "matmul": lambda m: tf.linalg.matmul(m, m),
    "trace": tf.linalg.trace,
}


def run(name, fn, m, staged):
    try:
        out = tf.function(fn)(m) if staged else fn(m)
        print(name, "ok", out.dtype.name, out.shape)
    except Exception as e:
        print(name, type(e).__name__)


for dtype in (tf.float16, tf.bfloat16):
    m = tf.constant(matrix, dtype)
    for staged in (False, True):
        print("--", dtype.name, "in tf.function" if staged else "eager")
        for name, fn in ops.items():
            run(name, fn, m, staged)

print(tf.linalg.inv(tf.constant(matrix, tf.float16)).numpy().tolist())
print(tf.linalg.matmul(tf.constant(matrix, tf.float16), tf.linalg.inv(tf.constant(matrix, tf.float16))))
