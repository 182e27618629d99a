"""Python conversions: int, float, bool, item, tolist, len."""
import tensorflow as tf

t = tf.constant([1.5, 2.5])
print(t.numpy().tolist())
print(float(t[0]), int(t[1]))
print(bool(tf.constant(0)))
print(tf.constant(3).numpy().item() + 1)
print(type(tf.constant(3).numpy()).__name__, type(tf.constant(3.0).numpy()).__name__)
print(type(tf.constant([3]).numpy()).__name__)
print(round(float(tf.constant(2.675)), 2))
print(tf.constant(3) == 3, tf.constant(3) != 3)
t3 = tf.constant(3)
print(t3.ref().deref() is t3, t3.ref() == t3.ref())
