"""Random ops: shapes, dtypes and ranges (values depend on the seed)."""
import tensorflow as tf

tf.random.set_seed(42)
u = tf.random.uniform((3, 4), minval=2.0, maxval=5.0)
print(u.shape, u.dtype, bool(tf.reduce_all((u >= 2.0) & (u < 5.0))))
n = tf.random.normal((2,), dtype=tf.float64)
print(n.shape, n.dtype)
i = tf.random.uniform((100,), minval=0, maxval=3, dtype=tf.int32)
print(i.dtype, sorted(set(i.numpy().tolist())) == [0, 1, 2])
t = tf.random.truncated_normal((1000,), stddev=1.0)
print(bool(tf.reduce_all(tf.abs(t) <= 2.0)))
