"""sequence_mask, roll, repeat, meshgrid, searchsorted."""
import tensorflow as tf

print(tf.sequence_mask([1, 3], maxlen=4))
print(tf.roll(tf.range(5), shift=2, axis=0))
print(tf.repeat(tf.constant([1, 2]), repeats=[2, 3]))
x, y = tf.meshgrid(tf.range(2), tf.range(3))
print(x.shape, y.numpy().tolist())
print(tf.searchsorted(tf.constant([1, 3, 5, 7]), tf.constant([0, 4, 7])))
print(tf.math.bincount(tf.constant([0, 0, 2])))
