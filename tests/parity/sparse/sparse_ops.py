"""tf.sparse: SparseTensor, to/from dense, reductions, layout ops, add, matmul (and its gradients),
softmax, eye, scaling, SparseTensors through tf.function."""
import numpy as np
import tensorflow as tf

sp = tf.SparseTensor(indices=[[0, 0], [1, 2], [3, 1]], values=[1.0, 2.0, 3.0], dense_shape=[4, 3])
print(tf.sparse.reduce_max(sp, axis=1))
print(tf.sparse.reduce_max(sp))
print(tf.sparse.reduce_sum(sp, axis=0))
print(tf.sparse.reduce_sum(sp, axis=[0, 1]))
print(tf.sparse.reduce_sum(sp, axis=1, keepdims=True))
out, empty = tf.sparse.fill_empty_rows(sp, -1.0)
print(out, empty)
print(tf.sparse.slice(sp, [1, 0], [3, 2]))
print(tf.sparse.add(sp, tf.SparseTensor([[0, 0], [2, 2]], [-1.0, 5.0], [4, 3])))
print(tf.sparse.add(sp, tf.SparseTensor([[0, 0], [2, 2]], [-0.5, 5.0], [4, 3]), threshold=0.6))
print(tf.sparse.add(sp, tf.ones([4, 3])))
print(tf.sparse.concat(1, [sp, sp]))
print(tf.sparse.concat(0, [sp, sp]))
print(tf.sparse.reshape(sp, [2, 6]))
print(tf.sparse.reshape(sp, [-1]))
print(tf.sparse.transpose(sp))
print(tf.sparse.expand_dims(sp, 1))
print(tf.sparse.retain(sp, [True, False, True]))
b = tf.constant(np.arange(6, dtype=np.float32).reshape(3, 2))
print(tf.sparse.sparse_dense_matmul(sp, b))
a42 = tf.constant(np.arange(8, dtype=np.float32).reshape(4, 2))
print(tf.sparse.sparse_dense_matmul(sp, a42, adjoint_a=True))
print(tf.sparse.sparse_dense_matmul(tf.constant(np.arange(8, dtype=np.float32).reshape(2, 4)), sp))
print(sp * tf.constant([1.0, 10.0, 100.0]))
print(sp / 2.0)
print(tf.sparse.map_values(tf.square, sp))
print(tf.sparse.softmax(tf.SparseTensor([[0, 0], [0, 2], [1, 1]], [1.0, 2.0, 3.0], [2, 3])))
print(tf.sparse.eye(3))
print(tf.sparse.to_dense(tf.sparse.reorder(tf.SparseTensor([[1, 0], [0, 1]], [5, 6], [2, 2]))))
print(tf.sparse.reorder(tf.SparseTensor([[1, 0], [0, 1]], [5, 6], [2, 2])))
print(tf.sparse.from_dense(tf.constant([["a", ""], ["", "b"]])))
print(tf.sparse.to_dense(tf.sparse.from_dense(tf.constant([[0, 3], [4, 0]])), default_value=9))
x = tf.Variable([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])
with tf.GradientTape() as tape:
    y = tf.reduce_sum(tf.sparse.sparse_dense_matmul(sp, x) ** 2)
print(tape.gradient(y, x))
v = tf.Variable([1.0, 2.0, 3.0])
with tf.GradientTape() as tape:
    s = tf.SparseTensor(sp.indices, v * 2.0, sp.dense_shape)
    y = tf.reduce_sum(tf.sparse.to_dense(s) * tf.constant([[1.0, 2.0, 3.0]]))
print(tape.gradient(y, v))

@tf.function
def f(s, d):
    return tf.sparse.sparse_dense_matmul(s, d), tf.sparse.reduce_sum(s, axis=1), tf.sparse.reorder(s).values
print(f(sp, b))
print(sp.shape, sp.dtype, sp.get_shape(), sp.dense_shape, sp.indices.dtype)
print(tf.is_tensor(sp), isinstance(sp, tf.SparseTensor), tf.sparse.SparseTensor is tf.SparseTensor)
print(sp.with_values(sp.values * 3))
