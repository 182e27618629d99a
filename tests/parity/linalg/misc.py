"""cross, tensordot, lstsq-style solves and triangular solves."""
import tensorflow as tf

print(tf.linalg.cross(tf.constant([1.0, 0.0, 0.0]), tf.constant([0.0, 1.0, 0.0])))
print(tf.linalg.tensordot(tf.ones((2, 3)), tf.ones((3,)), axes=1))
lower = tf.constant([[2.0, 0.0], [1.0, 1.0]])
print(tf.linalg.triangular_solve(lower, tf.constant([[2.0], [3.0]]), lower=True))
print(tf.linalg.lstsq(tf.constant([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]]), tf.constant([[1.0], [2.0], [3.0]])))
print(tf.linalg.expm(tf.zeros((2, 2))))
print(tf.linalg.logdet(tf.constant([[2.0, 0.0], [0.0, 3.0]])))
