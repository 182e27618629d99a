"""LinearOperatorFullMatrix / Diag / Identity / LowerTriangular: shapes, products, solves,
determinants, adjoints, batches, a gradient through them, and their errors."""
import numpy as np
import tensorflow as tf

np.set_printoptions(precision=5, suppress=True)
m = tf.constant([[4.0, 1.0], [2.0, 3.0]])
ops = [tf.linalg.LinearOperatorFullMatrix(m), tf.linalg.LinearOperatorDiag([2.0, -3.0]),
       tf.linalg.LinearOperatorIdentity(2), tf.linalg.LinearOperatorLowerTriangular(m)]
x = tf.constant([[1.0, 2.0], [3.0, 4.0]])
v = tf.constant([1.0, -1.0])
for op in ops:
    print(type(op).__name__, op.shape, op.batch_shape, op.domain_dimension, op.range_dimension, op.dtype.name,
          op.tensor_rank)
    print(op.to_dense().numpy())
    print(op.matmul(x).numpy(), op.matmul(x, adjoint=True).numpy(), op.matmul(x, adjoint_arg=True).numpy())
    print(op.matvec(v).numpy(), op.matvec(v, adjoint=True).numpy())
    print(op.solve(x).numpy(), op.solvevec(v).numpy(), op.solve(x, adjoint=True).numpy())
    print(op.determinant().numpy(), op.log_abs_determinant().numpy())
    print(op.diag_part().numpy(), op.trace().numpy())
    print((op @ x).numpy())
    print(op.is_non_singular, op.is_self_adjoint, op.is_positive_definite, op.is_square)
    print(op.adjoint().to_dense().numpy(), type(op.adjoint()).__name__)

b = tf.linalg.LinearOperatorDiag(tf.constant([[1.0, 2.0], [3.0, 4.0]]))
print(b.shape, b.batch_shape, b.to_dense().numpy(), b.matmul(x).numpy(), b.determinant().numpy())
i = tf.linalg.LinearOperatorIdentity(3, batch_shape=[2], dtype=tf.float64)
print(i.shape, i.dtype.name, i.determinant().numpy(), i.matvec(tf.ones([3], tf.float64)).numpy())
t = tf.Variable([[2.0, 0.0], [1.0, 3.0]])
with tf.GradientTape() as g:
    y = tf.reduce_sum(tf.linalg.LinearOperatorLowerTriangular(t).solve(x))
    y += tf.linalg.LinearOperatorFullMatrix(t).log_abs_determinant()
print(g.gradient(y, t).numpy())
for bad in [lambda: tf.linalg.LinearOperatorFullMatrix([1.0, 2.0]), lambda: tf.linalg.LinearOperatorDiag(1.0),
            lambda: tf.linalg.LinearOperatorFullMatrix(m).matmul(tf.ones([3, 2])),
            lambda: tf.linalg.LinearOperatorFullMatrix(tf.constant([[1, 2], [3, 4]])),
            lambda: tf.linalg.LinearOperatorIdentity(-1),
            lambda: tf.linalg.LinearOperatorDiag([1.0, 2.0], is_self_adjoint=False),
            lambda: tf.linalg.LinearOperatorFullMatrix(tf.ones([2, 3])).determinant()]:
    try:
        r = bad()
        print("no error", type(r).__name__)
    except Exception as e:
        print(type(e).__name__)
