"""Variables in arithmetic give Tensors."""
import tensorflow as tf

v = tf.Variable([1.0, 2.0, 3.0])
y = v * 2 + 1
print(y)
print(type(y) is type(tf.constant(1.0)))
print(isinstance(y, tf.Tensor), isinstance(v, tf.Tensor), isinstance(v, tf.Variable))
print(tf.reduce_sum(v))
print((v ** 2).numpy())
print(v[1].numpy(), v[0:2].numpy())
print(tf.matmul(tf.reshape(v, (1, 3)), tf.reshape(v, (3, 1))))
print(-v)
