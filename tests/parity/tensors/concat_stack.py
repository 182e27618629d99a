"""concat, stack, unstack and split."""
import tensorflow as tf

a = tf.constant([[1, 2], [3, 4]])
b = tf.constant([[5, 6], [7, 8]])
print(tf.concat([a, b], axis=0))
print(tf.concat([a, b], axis=1))
print(tf.stack([a, b]).shape)
print(tf.stack([a, b], axis=-1).shape)
for row in tf.unstack(a):
    print(row)
parts = tf.split(tf.range(6), 3)
print([p.numpy().tolist() for p in parts])
parts = tf.split(tf.range(6), [1, 2, 3])
print([p.numpy().tolist() for p in parts])
