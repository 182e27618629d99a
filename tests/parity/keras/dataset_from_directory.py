"""keras.utils image/text datasets from directories, split_dataset, and the image array helpers."""
import os
import tempfile

import numpy as np
import tensorflow as tf


def write_png(path, height, width, channels, offset):
    pixels = (np.arange(height * width * channels).reshape(height, width, channels) * 7 + offset) % 256
    tf.io.write_file(path, tf.io.encode_png(tf.constant(pixels.astype(np.uint8))))


def relative(paths, root):
    return [os.path.relpath(p, root) for p in paths]


def show(ds, name):
    print(name, ds.element_spec, len(ds), ds.class_names)


root_dir = tempfile.TemporaryDirectory()
root = root_dir.name
images = os.path.join(root, "images")
for index, (cls, count) in enumerate((("cats", 4), ("dogs", 3), ("birds", 2))):
    os.makedirs(os.path.join(images, cls, "more"))
    for i in range(count):
        write_png(os.path.join(images, cls, f"img{i}.png"), 5 + i, 7 - i, 3, 40 * index + i)
    write_png(os.path.join(images, cls, "more", "deep.PNG"), 6, 6, 3, 90 + index)
    tf.io.write_file(os.path.join(images, cls, "notes.md"), "not an image")
os.makedirs(os.path.join(images, ".hidden"))
write_png(os.path.join(images, ".hidden", "x.png"), 4, 4, 3, 0)

# -- no shuffling: alphanumeric order, pixel values -------------------------------------------------
ds = tf.keras.utils.image_dataset_from_directory(images, image_size=(4, 4), batch_size=4, shuffle=False)
show(ds, "plain")
print(relative(ds.file_paths, images))
x, y = next(iter(ds))
print(x.shape, x.dtype, y.numpy().tolist())
print(np.round(x.numpy()[0, :, :, 0], 3))
print(np.round(x.numpy()[3, 1], 3))
print([b[1].numpy().tolist() for b in ds])

for mode in ("categorical", None):
    ds = tf.keras.utils.image_dataset_from_directory(images, image_size=(3, 5), label_mode=mode,
                                                     shuffle=False, batch_size=3)
    show(ds, mode)
    first = next(iter(ds))
    print(first[1].numpy().tolist() if mode else first.shape)

ds = tf.keras.utils.image_dataset_from_directory(images, label_mode="binary", class_names=["dogs", "birds"],
                                                 image_size=(2, 2), shuffle=False, batch_size=None)
show(ds, "binary")
print([float(label[0]) for _, label in ds])

ds = tf.keras.utils.image_dataset_from_directory(images, image_size=(3, 3), shuffle=False, batch_size=2,
                                                 interpolation="nearest")
x, _ = next(iter(ds))
print("nearest", x.dtype, x.numpy()[0, :, :, 1].tolist())

for method in ("bicubic", "area", "lanczos3"):
    ds = tf.keras.utils.image_dataset_from_directory(images, image_size=(3, 3), shuffle=False, batch_size=12,
                                                     interpolation=method, verbose=False)
    x, _ = next(iter(ds))
    print(method, x.dtype, np.round(x.numpy()[[0, 5, 11], :, :, 0], 2).tolist())

for option in ("crop_to_aspect_ratio", "pad_to_aspect_ratio"):
    ds = tf.keras.utils.image_dataset_from_directory(images, image_size=(2, 4), shuffle=False, batch_size=9,
                                                     **{option: True})
    x, _ = next(iter(ds))
    print(option, x.shape, np.round(x.numpy()[[0, 3, 8], :, :, 2], 3).tolist())

ds = tf.keras.utils.image_dataset_from_directory(images, image_size=(4, 4), shuffle=False, color_mode="rgba",
                                                 data_format="channels_first", batch_size=2)
x, _ = next(iter(ds))
print("rgba", x.shape, np.round(x.numpy()[1, 3], 3).tolist())

explicit = list(range(13))[::-1]
ds = tf.keras.utils.image_dataset_from_directory(images, labels=explicit, image_size=(2, 2), shuffle=False)
show(ds, "explicit")
print(next(iter(ds))[1].numpy().tolist())

# -- seeded shuffle and validation split --------------------------------------------------------------
train, val = tf.keras.utils.image_dataset_from_directory(images, image_size=(4, 4), batch_size=4,
                                                         validation_split=0.34, subset="both", seed=7)
for name, part in (("train", train), ("val", val)):
    show(part, name)
    print(relative(part.file_paths, images))
    print(sorted(int(v) for _, labels in part for v in labels))
for subset in ("training", "validation"):
    part = tf.keras.utils.image_dataset_from_directory(images, image_size=(4, 4), validation_split=0.34,
                                                       subset=subset, seed=7, verbose=False)
    print(subset, relative(part.file_paths, images), sorted(int(v) for _, labels in part for v in labels))

for bad in (dict(label_mode="binary"), dict(validation_split=0.2, subset="training"), dict(color_mode="hsv"),
            dict(class_names=["cats", "fish"]), dict(labels=[0, 1])):
    try:
        tf.keras.utils.image_dataset_from_directory(images, **bad)
    except ValueError as error:
        print(sorted(bad), type(error).__name__, isinstance(error, ValueError))

# -- text files -----------------------------------------------------------------------------------
texts = os.path.join(root, "texts")
for cls, words in (("neg", ["bad", "awful film", "boring"]),
                   ("pos", ["great", "a fine film", "superb", "ok"])):
    os.makedirs(os.path.join(texts, cls))
    for i, word in enumerate(words):
        tf.io.write_file(os.path.join(texts, cls, f"{i}.txt"), f"{word} number {i}")
    tf.io.write_file(os.path.join(texts, cls, "skip.csv"), "not text")
ds = tf.keras.utils.text_dataset_from_directory(texts, batch_size=3, shuffle=False)
show(ds, "text")
print([(t.numpy().tolist(), y.numpy().tolist()) for t, y in ds])
ds = tf.keras.utils.text_dataset_from_directory(texts, batch_size=None, shuffle=False, max_length=6,
                                                label_mode=None)
print(ds.element_spec, [t.numpy() for t in ds])
train, val = tf.keras.utils.text_dataset_from_directory(texts, validation_split=0.3, subset="both", seed=11,
                                                        label_mode="categorical")
for name, part in (("train", train), ("val", val)):
    show(part, name)
    print(sorted(t.decode() for batch, _ in part for t in batch.numpy()))

# -- split_dataset --------------------------------------------------------------------------------
left, right = tf.keras.utils.split_dataset(np.arange(10), left_size=0.3, shuffle=True, seed=2)
print(left.element_spec, [int(v) for v in left], [int(v) for v in right])
left, right = tf.keras.utils.split_dataset(np.arange(20.0).reshape(10, 2), right_size=3)
print(left.element_spec, len(left), len(right), next(right.as_numpy_iterator()).tolist())
left, right = tf.keras.utils.split_dataset((np.arange(6.0), np.arange(6)), left_size=4, right_size=2)
print(left.element_spec, [(float(a), int(b)) for a, b in right])
left, right = tf.keras.utils.split_dataset(tf.data.Dataset.range(10).batch(3), right_size=4)
print(left.element_spec, [b.numpy().tolist() for b in left], [b.numpy().tolist() for b in right])
records = tf.data.Dataset.from_tensor_slices({"b": [1, 2, 3], "a": [1.0, 2, 3]})
left, right = tf.keras.utils.split_dataset(records, left_size=2)
print(left.element_spec, [{k: float(v) for k, v in e.items()} for e in right])
for bad in (dict(), dict(left_size=0), dict(left_size=1.5), dict(left_size=np.int64(2)),
            dict(left_size=7, right_size=4), dict(left_size=0.5, right_size=0.6), dict(left_size=0.01)):
    try:
        tf.keras.utils.split_dataset(np.arange(10), **bad)
    except (TypeError, ValueError) as error:
        print(sorted(bad), type(error).__name__)

# -- images as arrays and files ------------------------------------------------------------------
array = np.arange(24, dtype=np.float32).reshape(2, 4, 3)
img = tf.keras.utils.array_to_img(array)
print(img.mode, img.size, tf.keras.utils.img_to_array(img)[1].tolist())
gray = tf.keras.utils.array_to_img(array[:, :, :1] * 100, scale=False)
print(gray.mode, tf.keras.utils.img_to_array(gray).ravel().tolist())
print(tf.keras.utils.img_to_array(img, data_format="channels_first").shape)
path = os.path.join(root, "saved.png")
tf.keras.utils.save_img(path, np.arange(60).reshape(4, 5, 3))
for kwargs in (dict(), dict(color_mode="grayscale"), dict(target_size=(2, 3), interpolation="bilinear"),
               dict(target_size=(3, 3), keep_aspect_ratio=True, color_mode="rgba")):
    loaded = tf.keras.preprocessing.image.load_img(path, **kwargs)
    values = tf.keras.preprocessing.image.img_to_array(loaded)
    print(loaded.mode, loaded.size, values.shape, values[:, :, 0].tolist())
root_dir.cleanup()
