"""`image_dataset_from_directory`: a `Dataset` of decoded, resized images (and labels) from image files.

Keras 3's pipeline: the files are indexed and shuffled as TensorFlow does (`_directory_index`), then
each image is read, decoded (`companion.io.decode_image`) and resized with TensorFlow's pixel-centre
sampling when the dataset is iterated: bilinear, bicubic and nearest neighbour by TensorFlow's kernels
in NumPy (no compilation per image size), area and Lanczos by `companion.image.resize`.
"""

import numpy as np

from companion._core._convert import constant
from companion._core._errors import InvalidArgumentError
from companion.data import AUTOTUNE, Dataset
from companion.image import resize
from companion.io import decode_image, read_file
from companion.keras.utils import _directory_index
from companion.keras.utils._image_utils import standardize_data_format

ALLOWLIST_FORMATS = (".bmp", ".gif", ".jpeg", ".jpg", ".png")
_CHANNELS = {"rgb": 3, "rgba": 4, "grayscale": 1}
_INTERPOLATIONS = ("bilinear", "nearest", "bicubic", "area", "lanczos3", "lanczos5", "gaussian",
                   "mitchellcubic")
_NOT_IN_JAX = ("gaussian", "mitchellcubic")  # TensorFlow's, not jax.image.resize's


def image_dataset_from_directory(directory, labels="inferred", label_mode="int", class_names=None,
                                 color_mode="rgb", batch_size=32, image_size=(256, 256), shuffle=True,
                                 seed=None, validation_split=None, subset=None, interpolation="bilinear",
                                 follow_links=False, crop_to_aspect_ratio=False, pad_to_aspect_ratio=False,
                                 data_format=None, format="tf", verbose=True):
    """A `Dataset` of images (and labels) read from the image files under ``directory``.

    With ``labels="inferred"``, each subdirectory of ``directory`` is a class (``class_a/``,
    ``class_b/`` give labels 0 and 1, in alphanumeric order), searched recursively for ``.bmp``,
    ``.gif`` (first frame), ``.jpeg``, ``.jpg`` and ``.png`` files.

    Args:
        directory: the folder of the data.
        labels: ``"inferred"`` (from the subdirectory names), None (images only), or a list/tuple
            of integer labels, one per image file in the alphanumeric order of the file paths.
        label_mode: ``"int"`` (int32 labels), ``"categorical"`` (float32 one-hot rows),
            ``"binary"`` (float32 ``[1]`` of 0 or 1; exactly 2 classes), or None (no labels).
        class_names: with ``labels="inferred"``, the subdirectories to use and their order.
        color_mode: ``"rgb"`` (3 channels), ``"rgba"`` (4) or ``"grayscale"`` (1).
        batch_size: images per batch (None: single images).
        image_size: ``(height, width)`` (or an int for both) every image is resized to.
        shuffle: shuffle the files (a seeded global permutation, then a buffer of 8 batches while
            iterating); False keeps the alphanumeric order.
        seed: the seed of both shuffles (needed with ``validation_split`` and ``shuffle``).
        validation_split, subset: keep the last ``int(validation_split * n)`` files for
            ``subset="validation"``, the others for ``"training"``; ``"both"`` returns the pair
            ``[training, validation]``.
        interpolation: the resize method: ``"bilinear"``, ``"nearest"``, ``"bicubic"``,
            ``"area"``, ``"lanczos3"`` or ``"lanczos5"``.
        follow_links: also walk into symlinked subdirectories.
        crop_to_aspect_ratio: resize the largest centred crop with the target aspect ratio.
        pad_to_aspect_ratio: resize to fit, then pad with zeros to the target aspect ratio.
        data_format: ``"channels_last"`` (default) or ``"channels_first"``.
        format: ``"tf"`` only (a companion Dataset).
        verbose: print how many files and classes were found.

    Returns:
        A `Dataset` of ``(images, labels)`` (``images`` alone with no labels): float32 images
        ``[batch, height, width, channels]`` (``"nearest"`` keeps the files' uint8, as
        TensorFlow). It has the attributes ``class_names`` and ``file_paths``.

    Raises:
        ValueError: an invalid argument, no image files found, or a ``label_mode="binary"`` with
            other than 2 classes.
        NotImplementedError: ``interpolation`` is ``"gaussian"`` or ``"mitchellcubic"``, or
            ``format="grain"``.

    Example:
        >>> import os, tempfile
        >>> import numpy as np
        >>> import companion as tf
        >>> root = tempfile.mkdtemp()
        >>> for name in ("cat", "dog"):
        ...     os.mkdir(os.path.join(root, name))
        ...     tf.keras.utils.save_img(os.path.join(root, name, "1.png"), np.ones((6, 8, 3)))
        >>> ds = tf.keras.utils.image_dataset_from_directory(root, image_size=(3, 4), shuffle=False)
        Found 2 files belonging to 2 classes.
        >>> ds.class_names
        ['cat', 'dog']
        >>> images, labels = next(iter(ds))
        >>> images.shape, labels.numpy().tolist()
        (TensorShape([2, 3, 4, 3]), [0, 1])
    """
    labels, label_mode = _directory_index.check_arguments(labels, label_mode, class_names, "image")
    if color_mode not in _CHANNELS:
        raise ValueError(f"`color_mode` must be one of 'rgb', 'rgba', 'grayscale'. Received: "
                         f"color_mode={color_mode!r}")
    num_channels = _CHANNELS[color_mode]
    image_size = _image_size(image_size)
    interpolation = _interpolation(interpolation)
    if format != "tf":
        _reject_format(format)
    if crop_to_aspect_ratio and pad_to_aspect_ratio:
        raise ValueError("Only one of `pad_to_aspect_ratio` and `crop_to_aspect_ratio` can be True. "
                         "Received: both True")
    _directory_index.check_validation_split_arg(validation_split, subset, shuffle, seed)
    if seed is None:
        seed = np.random.randint(1e6)
    image_paths, labels, class_names = _directory_index.index_directory(
        directory, labels, formats=ALLOWLIST_FORMATS, class_names=class_names, shuffle=shuffle, seed=seed,
        follow_links=follow_links, verbose=verbose)
    if label_mode == "binary" and len(class_names) != 2:
        raise ValueError(f"label_mode='binary' needs exactly 2 classes. Received: class_names={class_names}")
    loader = _ImageLoader(image_size, num_channels, interpolation, standardize_data_format(data_format),
                          crop_to_aspect_ratio, pad_to_aspect_ratio)
    num_classes = len(class_names) if class_names else 0
    buffer = _directory_index.shuffle_buffer_size(batch_size)

    def build(subset_name, shuffled, what):
        paths, subset_labels = _directory_index.split(image_paths, labels, validation_split, subset_name)
        if not paths:
            raise ValueError(f"No {what}images found in directory {str(directory)!r}. Allowed formats: "
                             f"{ALLOWLIST_FORMATS}")
        return paths, subset_labels, shuffled

    if subset == "both":
        parts = [build("training", shuffle, "training "), build("validation", False, "validation ")]
    else:
        parts = [build(subset, shuffle, "")]
    datasets = []
    for paths, subset_labels, shuffled in parts:
        dataset = _paths_and_labels_to_dataset(paths, subset_labels, label_mode, num_classes, loader,
                                               shuffled, buffer, seed)
        dataset = _directory_index.finish(dataset, batch_size)
        dataset.class_names = class_names
        dataset.file_paths = paths
        datasets.append(dataset)
    return datasets if subset == "both" else datasets[0]


def _paths_and_labels_to_dataset(paths, labels, label_mode, num_classes, loader, shuffle, buffer, seed):
    dataset = Dataset.from_tensor_slices(paths)
    if label_mode:
        dataset = Dataset.zip((dataset, _directory_index.labels_dataset(labels, label_mode, num_classes)))
    if shuffle:
        dataset = dataset.shuffle(buffer_size=buffer, seed=seed)
    if label_mode:
        return dataset.map(lambda path, label: (loader(path), label), num_parallel_calls=AUTOTUNE)
    return dataset.map(loader, num_parallel_calls=AUTOTUNE)


class _ImageLoader:
    """One image file → its resized image tensor (Keras's ``_load_image_tf``)."""

    def __init__(self, image_size, num_channels, interpolation, data_format, crop, pad):
        self.image_size, self.num_channels, self.interpolation = image_size, num_channels, interpolation
        self.data_format, self.crop, self.pad = data_format, crop, pad

    def __call__(self, path):
        pixels = decode_image(read_file(path), channels=self.num_channels, expand_animations=False).numpy()
        if self.crop:
            pixels = _center_crop(pixels, self.image_size)
        if self.pad:
            image = _resize_with_pad(pixels, self.image_size, self.interpolation)
        else:
            image = _resize(pixels, self.image_size, self.interpolation)
        if self.data_format == "channels_first":
            image = np.transpose(image, (2, 0, 1))
        return constant(image)


def _resize(pixels, size, method):
    """``tf.image.resize(pixels, size, method)`` of one ``[height, width, channels]`` image, as an array.

    Bilinear, bicubic and nearest-neighbour resizing run TensorFlow's kernels (``ResizeBilinear``,
    ``ResizeBicubic``, ``ResizeNearestNeighbor``, half-pixel centres) in NumPy, bit for bit: images
    come in many sizes, and `companion.image.resize` compiles once per size. The other methods
    (area, Lanczos) use it.
    """
    if min(size) <= 0:
        raise InvalidArgumentError(f"Cannot resize an image of shape {pixels.shape} to {tuple(size)}: the "
                                   "output sizes must be positive (a very thin image padded to the aspect "
                                   "ratio shrinks to nothing).")
    if method == "bilinear":
        rows, cols = _bilinear_weights(pixels.shape[0], size[0]), _bilinear_weights(pixels.shape[1], size[1])
        image = pixels.astype(np.float32)
        x_lerp, y_lerp = cols[2][None, :, None], rows[2][:, None, None]
        top = image[rows[0]]
        bottom = image[rows[1]]
        top = top[:, cols[0]] + (top[:, cols[1]] - top[:, cols[0]]) * x_lerp
        bottom = bottom[:, cols[0]] + (bottom[:, cols[1]] - bottom[:, cols[0]]) * x_lerp
        return top + (bottom - top) * y_lerp
    if method == "bicubic":
        rows, cols = _bicubic_weights(pixels.shape[0], size[0]), _bicubic_weights(pixels.shape[1], size[1])
        image = pixels.astype(np.float32)
        columns = sum(weight[:, None, None] * image[index] for index, weight in rows)  # along y first
        return sum(weight[None, :, None] * columns[:, index] for index, weight in cols)
    if method == "nearest":  # keeps the dtype, as TensorFlow
        rows, cols = _nearest_indices(pixels.shape[0], size[0]), _nearest_indices(pixels.shape[1], size[1])
        return pixels[rows][:, cols]
    return resize(constant(pixels), size, method=method).numpy()


def _bilinear_weights(in_size, out_size):
    """TensorFlow's ``compute_interpolation_weights`` with half-pixel centres, in float32: the lower and
    upper source index of each output pixel and the weight of the upper one."""
    scale = np.float32(in_size) / np.float32(out_size)
    position = (np.arange(out_size, dtype=np.float32) + np.float32(0.5)) * scale - np.float32(0.5)
    floor = np.floor(position)
    lower = np.maximum(floor.astype(np.int64), 0)
    upper = np.minimum(np.ceil(position).astype(np.int64), in_size - 1)
    return lower, upper, (position - floor).astype(np.float32)


def _bicubic_weights(in_size, out_size):
    """TensorFlow's ``ResizeBicubic`` weights with half-pixel centres (Keys' kernel, a = -0.5, read from
    its table of 1025 steps): four ``(source indices, weights)`` pairs, taps outside the image weighted 0
    and the weights renormalised to sum to 1."""
    position = ((np.arange(out_size, dtype=np.float32) + np.float32(0.5))
                * (np.float32(in_size) / np.float32(out_size)) - np.float32(0.5))
    start = np.floor(position).astype(np.int64)
    offset = np.rint((position - start) * np.float32(_TABLE_SIZE)).astype(np.int64)
    table = _keys_cubic_table()
    mirrored = _TABLE_SIZE - offset
    taps = [(start - 1, table[offset, 1]), (start, table[offset, 0]), (start + 1, table[mirrored, 0]),
            (start + 2, table[mirrored, 1])]
    weights = [np.where((index >= 0) & (index < in_size), weight, np.float32(0)) for index, weight in taps]
    total = weights[0] + weights[1] + weights[2] + weights[3]
    scale = np.where(np.abs(total) >= 1000 * np.finfo(np.float32).tiny, np.float32(1) / total, np.float32(1))
    return [(np.clip(index, 0, in_size - 1), (weight * scale).astype(np.float32))
            for (index, _), weight in zip(taps, weights)]


_TABLE_SIZE = 1024


def _keys_cubic_table():
    """TensorFlow's coefficient table: row ``i`` holds the kernel at ``i / 1024`` and ``1 + i / 1024``."""
    x = np.arange(_TABLE_SIZE + 1, dtype=np.float64) / _TABLE_SIZE
    near = ((1.5 * x - 2.5) * x) * x + 1.0
    far = ((-0.5 * (x + 1) + 2.5) * (x + 1) - 4.0) * (x + 1) + 2.0
    return np.stack([near, far], axis=1).astype(np.float32)


def _nearest_indices(in_size, out_size):
    """TensorFlow's nearest-neighbour source indices with half-pixel centres: ``floor((i + 0.5) * scale)``."""
    scale = np.float32(in_size) / np.float32(out_size)
    position = np.floor((np.arange(out_size, dtype=np.float32) + np.float32(0.5)) * scale).astype(np.int64)
    return np.clip(position, 0, in_size - 1)


def _center_crop(pixels, size):
    """The largest centred crop with the aspect ratio of ``size`` (Keras's ``smart_resize``; float32
    arithmetic, as its graph branch in TensorFlow)."""
    height, width = pixels.shape[0], pixels.shape[1]
    target_height, target_width = size
    crop_height = int(np.float32(width * target_height) / np.float32(target_width))
    crop_height = max(min(height, crop_height), 1)
    crop_width = int(np.float32(height * target_width) / np.float32(target_height))
    crop_width = max(min(width, crop_width), 1)
    top = int(np.float32(height - crop_height) / np.float32(2))
    left = int(np.float32(width - crop_width) / np.float32(2))
    return pixels[top:top + crop_height, left:left + crop_width, :]


def _resize_with_pad(pixels, size, method):
    """``tf.image.resize_with_pad``: resize to fit inside ``size`` keeping the aspect ratio, then pad
    with zeros, centred (float32 arithmetic, as TensorFlow)."""
    height, width = np.float32(pixels.shape[0]), np.float32(pixels.shape[1])
    target_height, target_width = np.float32(size[0]), np.float32(size[1])
    ratio = max(width / target_width, height / target_height)
    resized_height, resized_width = height / ratio, width / ratio
    top = max(0, int(np.floor((target_height - resized_height) / np.float32(2))))
    left = max(0, int(np.floor((target_width - resized_width) / np.float32(2))))
    resized = _resize(pixels, (int(np.floor(resized_height)), int(np.floor(resized_width))), method)
    padded = np.zeros((size[0], size[1], pixels.shape[2]), resized.dtype)
    padded[top:top + resized.shape[0], left:left + resized.shape[1]] = resized
    return padded


def _image_size(image_size):
    if isinstance(image_size, int):
        return (image_size, image_size)
    if not isinstance(image_size, (list, tuple)) or len(image_size) != 2:
        raise ValueError(f"`image_size` must be a tuple of 2 integers (height, width). Received: "
                         f"image_size={image_size!r}")
    return tuple(image_size)


def _interpolation(interpolation):
    value = interpolation.lower() if isinstance(interpolation, str) else interpolation
    if value not in _INTERPOLATIONS:
        raise ValueError(f"`interpolation` must be one of {_INTERPOLATIONS}. Received: "
                         f"interpolation={interpolation!r}")
    if value in _NOT_IN_JAX:
        raise NotImplementedError(f"interpolation={value!r} is TensorFlow-only: companion resizes with "
                                  "jax.image.resize. Use 'bilinear', 'nearest', 'bicubic', 'area', "
                                  "'lanczos3' or 'lanczos5'.")
    return value


def _reject_format(format):
    if format == "grain":
        raise NotImplementedError("format='grain' (a grain.IterDataset) is not available in companion; use "
                                  "format='tf' for a companion.data.Dataset.")
    raise ValueError(f"`format` must be 'tf' or 'grain'. Received: format={format!r}")
