"""Keras 3 image preprocessing layers: Resizing, CenterCrop, and the random augmentations with fixed
factors (rotations, zooms, shifts in every fill mode), flips, crops, and a Sequential of them."""
import numpy as np
import tensorflow as tf

L = tf.keras.layers
img = tf.reshape(tf.range(2 * 5 * 6 * 2, dtype=tf.float32), [2, 5, 6, 2])


def r(t):
    return np.round(t.numpy(), 3).tolist()


print(r(L.Resizing(3, 4)(img)[0, :, :, 0]), L.Resizing(3, 4).compute_output_shape((None, 5, 6, 2)))
print(r(L.Resizing(4, 4, crop_to_aspect_ratio=True)(img)[1, :, :, 1]))
print(r(L.Resizing(4, 4, interpolation="nearest")(img)[0, :, :, 0]))
print(r(L.CenterCrop(3, 2)(img)[0, :, :, 0]), r(L.CenterCrop(4, 8)(img)[0, :, :, 1]))
for fill in ("reflect", "constant", "nearest", "wrap"):
    rot = L.RandomRotation((0.25, 0.25), fill_mode=fill)
    print(fill, r(rot(img)[0, :, :, 0]))
print(r(L.RandomRotation((0.125, 0.125), interpolation="nearest", fill_mode="constant")(img)[1, :, :, 1]))
print(r(L.RandomZoom((0.5, 0.5))(img)[0, :, :, 0]))
print(r(L.RandomZoom((-0.5, -0.5), (0.2, 0.2), fill_mode="constant")(img)[0, :, :, 0]))
print(r(L.RandomTranslation((0.2, 0.2), (-0.5, -0.5), fill_mode="constant")(img)[0, :, :, 0]))
print(r(L.RandomTranslation((0.4, 0.4), (0.0, 0.0))(img)[0, :, :, 0]))
print(r(L.RandomFlip("horizontal")(img, training=False)[0, 0, :, 0]), L.RandomFlip().get_config()["mode"])
f = L.RandomFlip("vertical", seed=1)(img)
kept = [np.array_equal(f.numpy()[i], img.numpy()[i]) or np.array_equal(f.numpy()[i], img.numpy()[i, ::-1])
        for i in range(2)]
print(f.shape, all(kept))
c = L.RandomCrop(3, 4, seed=2)(img)
print(c.shape, r(L.RandomCrop(3, 4)(img, training=False)[0, :, :, 0]))
contrast = L.RandomContrast((0.5, 0.5), value_range=(0, 100))(img)
print(contrast.shape, float(tf.reduce_min(contrast)) >= 0, float(tf.reduce_max(contrast)) <= 100)
print(L.RandomContrast(0.2).get_config()["value_range"])
b = L.RandomBrightness((0.1, 0.1), value_range=(0, 100))(img)
print(r(b[0, 0, :3, 0]))
m = tf.keras.Sequential([L.Input((5, 6, 2)), L.RandomFlip("horizontal"), L.RandomRotation(0.1),
                         L.RandomZoom(0.1), L.Resizing(4, 4), L.Flatten(),
                         L.Dense(1, kernel_initializer="ones")])
print(m.predict(img, verbose=0).round(2).tolist())
