"""Deterministic initializers and the shapes/dtypes of random ones."""
import tensorflow as tf

print(tf.keras.initializers.Zeros()((2,)))
print(tf.keras.initializers.Ones()((2, 2)))
print(tf.keras.initializers.Constant(3.0)((2,)))
print(tf.keras.initializers.Identity()((2, 2)))
g = tf.keras.initializers.GlorotUniform(seed=1)((3, 4))
print(g.shape, g.dtype, bool(tf.reduce_all(tf.abs(g) <= (6 / 7) ** 0.5)))
print(tf.keras.initializers.get("he_normal").__class__.__name__)
