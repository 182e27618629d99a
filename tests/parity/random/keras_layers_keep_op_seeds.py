"""Building and calling Keras layers (initializers, dropout, recurrent dropout, noise) does not move
TF's eager op-seed sequence: the tf.random draws after them are the ones set_seed alone gives."""
import tensorflow as tf

tf.random.set_seed(3)
dense = tf.keras.layers.Dense(3)
dense.build((None, 2))
tf.keras.layers.Dropout(0.5)(tf.ones([4, 4]), training=True)
tf.keras.layers.GRU(2, dropout=0.5, recurrent_dropout=0.5)(tf.ones([1, 3, 2]), training=True)
tf.keras.layers.GaussianNoise(0.1)(tf.ones([2]), training=True)
tf.keras.layers.GaussianDropout(0.1)(tf.ones([2]), training=True)
print(tf.random.normal([3]).numpy())
print(tf.random.uniform([2], seed=4).numpy())
print(tf.random.truncated_normal([2]).numpy())
print(tf.nn.dropout(tf.ones([6]), 0.5).numpy())
