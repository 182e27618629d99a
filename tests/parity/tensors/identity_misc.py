"""identity, tensor properties and conversion to Python values."""
import tensorflow as tf

t = tf.constant([[1, 2], [3, 4]])
print(tf.identity(t))
print(t.numpy().tolist())
print(int(tf.constant(3)), float(tf.constant(2.5)), bool(tf.constant(True)))
print(tf.constant(7).numpy().item())
print(t.dtype.name, t.ndim, t.get_shape())
print(tf.constant([1.0, 2.0]).numpy().dtype)
print(list(tf.constant([1, 2, 3]).numpy()))
