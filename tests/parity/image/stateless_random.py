"""image.stateless_random_*: the same flips, crops and colour changes as TensorFlow for a seed."""
import numpy as np
import tensorflow as tf

np.set_printoptions(precision=5, suppress=True)
img = tf.constant(np.random.default_rng(0).uniform(0, 1, (4, 5, 3)).astype(np.float32))
batch = tf.stack([img, img[::-1], img * 0.5])
for seed in ([1, 2], [3, 4], [7, 7], [10, 0]):
    print(tf.image.stateless_random_flip_left_right(img, seed)[0, :, 0].numpy())
    print(tf.image.stateless_random_flip_up_down(batch, seed)[:, :, 0, 0].numpy())
    print(tf.image.stateless_random_brightness(img, 0.3, seed)[0, 0].numpy())
    print(tf.image.stateless_random_contrast(img, 0.2, 1.8, seed)[0, 0].numpy())
    print(tf.image.stateless_random_saturation(img, 0.5, 1.5, seed)[0, 0].numpy())
    print(tf.image.stateless_random_hue(img, 0.2, seed)[0, 0].numpy())
    print(tf.image.stateless_random_crop(img, [2, 3, 3], seed)[:, :, 0].numpy())
    print(tf.image.stateless_random_crop(batch, [2, 3, 3, 2], seed).shape)
for bad in (lambda: tf.image.stateless_random_brightness(img, -1.0, [1, 2]),
            lambda: tf.image.stateless_random_contrast(img, 1.0, 0.5, [1, 2]),
            lambda: tf.image.stateless_random_hue(img, 0.7, [1, 2]),
            lambda: tf.image.stateless_random_crop(img, [5, 3, 3], [1, 2]),
            lambda: tf.image.stateless_random_flip_left_right(img[0], [1, 2])):
    try:
        bad()
        print("no error")
    except Exception as e:
        print(type(e).__name__)
