"""Factory functions: ones, zeros, fill, eye, range, linspace."""
import tensorflow as tf

print(tf.ones((2, 3)))
print(tf.zeros([2], dtype=tf.int32))
print(tf.fill((2, 2), 7))
print(tf.eye(3))
print(tf.range(5))
print(tf.range(1, 10, 3))
print(tf.range(0.0, 1.0, 0.25))
print(tf.linspace(0.0, 1.0, 5))
print(tf.zeros_like(tf.constant([[1, 2]])))
print(tf.ones_like(tf.constant([1.0, 2.0])))
print(tf.constant(0.5, shape=(2, 2)))
