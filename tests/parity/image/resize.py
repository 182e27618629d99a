"""image.resize of a small deterministic image."""
import numpy as np
import tensorflow as tf

img = tf.constant(np.arange(16, dtype=np.float32).reshape(4, 4, 1))
print(tf.image.resize(img, (2, 2))[:, :, 0])
print(tf.image.resize(img, (2, 2), method="nearest")[:, :, 0])
print(tf.image.resize(img, (8, 8)).shape, tf.image.resize(tf.cast(img, tf.uint8), (2, 2)).dtype)
print(tf.image.resize(img[tf.newaxis], (3, 3)).shape)
