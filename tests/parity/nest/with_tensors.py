"""nest functions on structures of tensors."""
import tensorflow as tf

s = {"w": tf.constant([1.0, 2.0]), "b": tf.constant(0.5)}
flat = tf.nest.flatten(s)
print([t.numpy().tolist() for t in flat])
doubled = tf.nest.map_structure(lambda t: t * 2, s)
print({k: v.numpy().tolist() for k, v in doubled.items()})
print(tf.nest.map_structure(tf.shape, [tf.zeros((2, 3))]))
