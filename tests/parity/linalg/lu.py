"""lu (Lu(lu, p), p int32 by default), lu_solve, lu_reconstruct, lu_matrix_inverse; singular input."""
import tensorflow as tf

a = tf.constant([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0], [7.0, 8.0, 10.0]])
lu, p = tf.linalg.lu(a)
print(lu)
print(p)
result = tf.linalg.lu(a)
print(type(result).__name__, result._fields)
print(tf.linalg.lu(a, output_idx_type=tf.int64).p)
print(tf.linalg.lu_reconstruct(lu, p))
print(tf.linalg.lu_solve(lu, p, tf.constant([[1.0], [2.0], [3.0]])))
print(tf.linalg.lu_matrix_inverse(lu, p))

batch = tf.stack([a, tf.eye(3) * 2.0])
batch_lu, batch_p = tf.linalg.lu(batch)
print(batch_lu, batch_p)
print(tf.linalg.lu_reconstruct(batch_lu, batch_p))
print(tf.function(lambda m: tf.linalg.lu(m))(a))
print(tf.linalg.lu(tf.cast(a, tf.float64)))
print(tf.linalg.lu(tf.complex(a, a)).lu.dtype)

for name, make in [("non-square", lambda: tf.linalg.lu(tf.ones([2, 3]))),
                   ("singular", lambda: tf.linalg.lu(tf.constant([[1.0, 2.0], [2.0, 4.0]]))),
                   ("singular in a function", lambda: tf.function(tf.linalg.lu)(tf.zeros([2, 2]))),
                   ("index dtype", lambda: tf.linalg.lu(a, output_idx_type=tf.float32)),
                   ("rhs rows", lambda: tf.linalg.lu_solve(lu, p, tf.ones([2, 1])))]:
    try:
        make()
        print(name, "no error")
    except Exception as e:
        print(name, type(e).__name__, isinstance(e, tf.errors.InvalidArgumentError))
