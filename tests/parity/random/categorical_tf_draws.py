"""Eager tf.random.categorical under a global or an op seed draws TF's CPU Multinomial numbers: its
op seeds, its kernels' Philox counters (per logits dtype, output dtype and seeds), float64 running
sums over finite logits, two 32-bit words per sample; the op-seed sequence stays in step."""
import numpy as np
import tensorflow as tf

tf.random.set_seed(7)
print(tf.random.categorical(tf.math.log([[0.5, 0.3, 0.2]]), 12).numpy())
print(tf.random.categorical(tf.math.log([[0.5, 0.3, 0.2]]), 12).numpy())
print(tf.random.categorical([[1.0, 2.0, 3.0], [3.0, 2.0, 1.0]], 5, seed=4).numpy())
print(tf.random.categorical([[1.0, 2.0, 3.0], [3.0, 2.0, 1.0]], 5, seed=4).numpy())
print(tf.random.categorical([[1.0, 2.0, 3.0], [3.0, 2.0, 1.0]], 5, seed=4, dtype=tf.int32).numpy())
print(tf.random.categorical(tf.constant([[0.0, -np.inf, 1.0, np.nan]]), 8, seed=1).numpy())
print(tf.random.uniform([2]).numpy())
print(tf.random.categorical(tf.zeros([1, 7], tf.float64), 9).numpy())
print(tf.random.categorical(tf.zeros([3, 4]), 0).shape)
logits = tf.math.log(tf.constant(np.random.default_rng(0).dirichlet(np.ones(20), size=4), tf.float32))
print(tf.random.categorical(logits, 30).numpy())
print(tf.random.normal([2], seed=2).numpy())
# a costly batch: TF splits its rows among its threads (machine-dependent numbers); only the shape
# and the op-seed sequence after it are compared
print(tf.random.categorical(tf.zeros([300, 10]), 10).shape)
print(tf.random.uniform([2]).numpy())
