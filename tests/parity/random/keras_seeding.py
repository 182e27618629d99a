"""Keras 3's seeding gives TensorFlow's numbers: keras.random draws and SeedGenerator, seeded Dropout/
GaussianNoise/GaussianDropout/AlphaDropout/SpatialDropout/Attention, and after set_random_seed the
default seeds of initializers and layers, down to a trained model's losses."""
import numpy as np
import tensorflow as tf

print(tf.keras.random.uniform([3], seed=1))
print(tf.keras.random.normal([2, 2], seed=5, mean=1.0))
print(tf.keras.random.truncated_normal([3], seed=9))
print(tf.keras.random.randint([4], 0, 10, seed=3))
g = tf.keras.random.SeedGenerator(42)
first = tf.keras.random.uniform([2], seed=g).numpy()
print(first, tf.keras.random.uniform([2], seed=g).numpy(), g.state.numpy())
print(tf.keras.random.dropout(tf.ones((2, 5)), 0.4, seed=tf.keras.random.SeedGenerator(3)).numpy())
print(tf.keras.random.shuffle(tf.range(6), seed=4).numpy())
big = tf.keras.random.SeedGenerator(3000000000)
print(tf.keras.random.uniform([2], seed=big).numpy())
tf.keras.utils.set_random_seed(42)
layer = tf.keras.layers.Dense(3)
layer.build((None, 2))
print(layer.kernel.numpy())
d = tf.keras.layers.Dropout(0.5)
print(d(tf.ones((2, 4)), training=True).numpy())
print(d(tf.ones((2, 4)), training=True).numpy())
tf.keras.utils.set_random_seed(7)
m = tf.keras.Sequential([tf.keras.Input((4,)), tf.keras.layers.Dense(8, activation="relu"),
                         tf.keras.layers.Dropout(0.2), tf.keras.layers.Dense(1)])
print(np.round(m.predict(np.ones((2, 4)), verbose=0), 5))
m.compile("adam", "mse")
h = m.fit(np.linspace(0, 1, 32).reshape(8, 4).astype("float32"), np.arange(8, dtype="float32"), epochs=3,
          verbose=0, shuffle=False, batch_size=4)
print(np.round(h.history["loss"], 4))
print(tf.keras.layers.Dropout(0.3, seed=11)(tf.ones((3, 3)), training=True).numpy())
g = tf.keras.layers.GaussianNoise(0.5, seed=3)
print(np.round(g(tf.zeros((2, 3)), training=True).numpy(), 5))
print(np.round(tf.keras.layers.GaussianDropout(0.4, seed=3)(tf.ones((2, 3)), training=True).numpy(), 5))
print(np.round(tf.keras.layers.AlphaDropout(0.4, seed=3)(tf.ones((2, 3)), training=True).numpy(), 5))
print(tf.keras.layers.SpatialDropout1D(0.5, seed=2)(tf.ones((2, 3, 4)), training=True).numpy())
tf.keras.utils.set_random_seed(3)
print(np.round(tf.keras.initializers.HeNormal()((2, 2)).numpy(), 5),
      np.round(tf.keras.initializers.Orthogonal()((2, 2)).numpy(), 5))
print(tf.keras.initializers.GlorotUniform().get_config())
att = tf.keras.layers.Attention(dropout=0.5, seed=4)
q = tf.constant(np.arange(12, dtype=np.float32).reshape(1, 3, 4) / 10)
print(np.round(att([q, q], training=True).numpy(), 5))
