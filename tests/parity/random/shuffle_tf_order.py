"""Eager tf.random.shuffle with a global or an op seed gives TF's order: its op seeds, its kernels'
Philox streams (one per dtype and seeds, kept between calls) and its swaps; no gradient flows."""
import tensorflow as tf

tf.random.set_seed(7)
print(tf.random.shuffle(tf.range(10)).numpy())
print(tf.random.shuffle(tf.range(10)).numpy())
print(tf.random.shuffle(tf.range(10), seed=3).numpy())
print(tf.random.shuffle(tf.range(10), seed=3).numpy())
print(tf.random.uniform([3]).numpy())
print(tf.random.shuffle(tf.reshape(tf.range(12), [6, 2]), seed=3).numpy().tolist())
print(tf.random.shuffle(tf.constant(["a", "b", "c", "d", "e"]), seed=9).numpy())
print(tf.random.shuffle(tf.constant([5])).numpy(), tf.random.shuffle(tf.constant([[1, 2]])).numpy())
print(tf.random.shuffle(tf.range(10, dtype=tf.float32), seed=3).numpy())
print(tf.random.shuffle(tf.range(10, dtype=tf.int64), seed=3).numpy())
print(tf.random.shuffle(tf.range(1000), seed=11).numpy()[:12])
print(tf.random.shuffle(tf.range(1000), seed=11).numpy()[-5:])
v = tf.Variable([1.0, 2.0, 3.0])
with tf.GradientTape() as tape:
    y = tf.reduce_sum(tf.random.shuffle(v) * tf.constant([1.0, 2.0, 3.0]))
print(tape.gradient(y, v))
print(tf.random.normal([2], seed=3).numpy())

tf.random.set_seed(7)  # the kernels start again with the seed
print(tf.random.shuffle(tf.range(10)).numpy())
x = tf.constant([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0], [7.0, 8.0]])
print(tf.random.shuffle(x, seed=1).numpy().tolist())
