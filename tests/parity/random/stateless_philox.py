"""Stateless random numbers are TensorFlow's (Philox): uniform/normal/truncated normal in every float
dtype, integers in a range and over the whole range, split/fold_in, and seeded Keras initializers."""
import numpy as np
import tensorflow as tf

print(tf.random.stateless_normal([8], seed=[3, 4]).numpy())
print(np.round(tf.random.stateless_normal([2, 3], seed=[-5, 123456789012]).numpy(), 5))
print(tf.random.stateless_uniform([5], seed=[-5, 123456789012], minval=-2.0, maxval=3.0).numpy())
print(tf.random.stateless_uniform([5], seed=[7, 8], minval=-3, maxval=100, dtype=tf.int32).numpy())
print(tf.random.stateless_uniform([3], seed=[7, 8], dtype=tf.float64).numpy())
print(tf.random.stateless_normal([3], seed=[7, 8], dtype=tf.float64).numpy())
print(tf.random.stateless_truncated_normal([6], seed=[7, 8]).numpy())
print(tf.random.stateless_uniform([3], seed=[7, 8], dtype=tf.float16).numpy())
print(tf.random.stateless_uniform([3], seed=[7, 8], dtype=tf.bfloat16).numpy())
print(tf.random.stateless_uniform([4], seed=[7, 8], minval=None, maxval=None, dtype=tf.int64).numpy())
for init in [tf.keras.initializers.GlorotUniform(seed=1), tf.keras.initializers.HeNormal(seed=2),
             tf.keras.initializers.RandomNormal(seed=3), tf.keras.initializers.RandomUniform(-1, 1, seed=4),
             tf.keras.initializers.TruncatedNormal(seed=5), tf.keras.initializers.LecunUniform(seed=6),
             tf.keras.initializers.Orthogonal(seed=7)]:
    print(type(init).__name__, np.round(init((3, 2)).numpy(), 6).tolist())
layer = tf.keras.layers.Dense(2, kernel_initializer=tf.keras.initializers.GlorotUniform(seed=11))
print(layer(tf.ones((1, 3))).numpy())
print(tf.random.split(tf.constant([1, 2], tf.int64), 2).numpy())
print(tf.random.fold_in([1, 2], 7).numpy())
print(tf.random.stateless_truncated_normal([3, 3], seed=[9, 9], mean=1.0, stddev=2.0).numpy())
