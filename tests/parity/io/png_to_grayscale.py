"""decode_png/decode_image with channels=1 on color PNGs: libpng's luma as TF decodes it."""
import numpy as np
import tensorflow as tf

rng = np.random.default_rng(1)
rgb = rng.integers(0, 256, size=(64, 64, 3), dtype=np.uint8)
rgb[0, :64] = np.arange(0, 256, 4)[:, None]  # gray pixels stay as they are
gray = tf.io.decode_png(tf.io.encode_png(rgb), channels=1).numpy()
print(gray.shape, gray.dtype, int(gray.astype(np.int64).sum()))
print(gray[0, :8, 0].tolist(), gray[5, :8, 0].tolist())
rgba = np.concatenate([rgb, rng.integers(0, 256, size=(64, 64, 1), dtype=np.uint8)], -1)
print(int(tf.io.decode_image(tf.io.encode_png(rgba), channels=1).numpy().astype(np.int64).sum()))
