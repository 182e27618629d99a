"""cholesky, qr, svd and eigh on small symmetric matrices (sign-free facts)."""
import tensorflow as tf

a = tf.constant([[4.0, 2.0], [2.0, 3.0]])
ch = tf.linalg.cholesky(a)
print(ch)
print(tf.matmul(ch, ch, transpose_b=True))
q, r = tf.linalg.qr(a)
print(q.shape, r.shape)
print(tf.abs(tf.linalg.diag_part(r)))
s = tf.linalg.svd(a, compute_uv=False)
print(s)
e = tf.linalg.eigh(a)[0]
print(e)
print(tf.linalg.eigvalsh(a))
