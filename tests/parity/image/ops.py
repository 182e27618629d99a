"""flips, convert_image_dtype, per_image_standardization, rgb_to_grayscale."""
import numpy as np
import tensorflow as tf

img = tf.constant(np.arange(12, dtype=np.float32).reshape(2, 2, 3))
print(tf.image.flip_left_right(img)[:, :, 0])
print(tf.image.flip_up_down(img)[:, :, 0])
print(tf.image.convert_image_dtype(tf.constant([[[0, 128, 255]]], dtype=tf.uint8), tf.float32))
print(tf.image.per_image_standardization(img)[0, 0])
print(tf.image.rgb_to_grayscale(img)[:, :, 0])
print(tf.image.central_crop(tf.ones((4, 4, 1)), 0.5).shape)
