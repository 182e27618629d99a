"""Crops and pads: `central_crop`, `random_crop`, `crop_to_bounding_box`, `pad_to_bounding_box`, ..."""

import jax
import jax.numpy as jnp
import numpy as np

from companion._core._convert import as_input
from companion._core._errors import InvalidArgumentError, RuntimeCheckError
from companion._core._op import op
from companion._ops._static import static_int, static_ints
from companion.image._checks import image_input, random_key, static_shape
from companion.image._resize import resize


@op("crop", static=("box",))
def _crop(image, box):
    top, left, height, width = box
    return image[..., top:top + height, left:left + width, :]


@op("pad_image", static=("pads",))
def _pad(image, pads):
    return jnp.pad(image, [(0, 0)] * (image.ndim - 3) + list(pads) + [(0, 0)])


@op("random_crop", static=("size",))
def _random_crop(value, key, size):
    limits = jnp.asarray([dim - s + 1 for dim, s in zip(value.shape, size)])
    offsets = jax.random.randint(key, (value.ndim,), 0, limits)
    return jax.lax.dynamic_slice(value, tuple(offsets), size)


def central_crop(image, central_fraction):
    """Keeps the central ``central_fraction`` (in (0, 1]) of each image's height and width.

    As in TensorFlow, the margin on each side is ``int((size - size * fraction) / 2)`` and
    the crop keeps ``size - 2 * margin`` pixels (so 10 rows at 0.5 keep 6).

    Example:
        >>> import companion as tf
        >>> tf.image.central_crop(tf.zeros([10, 8, 3]), 0.5).shape
        TensorShape([6, 4, 3])
    """
    image = image_input(image, "central_crop")
    fraction = float(central_fraction)
    if not 0.0 < fraction <= 1.0:
        raise ValueError(f"central_crop: central_fraction must be in (0, 1]. Received: {central_fraction!r}")
    if fraction == 1.0:
        return image
    height, width = static_shape(image)[-3:-1]
    top = int((float(height) - float(height) * fraction) / 2)
    left = int((float(width) - float(width) * fraction) / 2)
    return _crop(image, box=(top, left, height - 2 * top, width - 2 * left))


def random_crop(value, size, seed=None, name=None):
    """A random slice of ``value`` of shape ``size`` (same rank), at a uniformly random offset.

    Seeded like every companion random op (TensorFlow's seed rules).

    Example:
        >>> import companion as tf
        >>> tf.image.random_crop(tf.zeros([32, 32, 3]), size=[24, 24, 3], seed=0).shape
        TensorShape([24, 24, 3])
    """
    value = as_input(value)
    size = static_ints(size, "random_crop: size")
    shape = static_shape(value)
    if len(size) != len(shape) or any(s < 0 or s > d for s, d in zip(size, shape)):
        raise RuntimeCheckError(f"random_crop: size must have one entry per dimension of value, each at "
                                f"most that dimension. Received size={list(size)} for value of shape "
                                f"{list(shape)}.")
    return _random_crop(value, random_key(seed), size=size)


def crop_to_bounding_box(image, offset_height, offset_width, target_height, target_width):
    """The ``target_height × target_width`` window of each image whose top-left pixel is at the offsets."""
    image = image_input(image, "crop_to_bounding_box")
    box = _box(offset_height, offset_width, target_height, target_width, "crop_to_bounding_box")
    height, width = static_shape(image)[-3:-1]
    if box[0] + box[2] > height or box[1] + box[3] > width:
        raise InvalidArgumentError(f"crop_to_bounding_box: the box (top, left, height, width)={box} does not "
                                   f"fit in images of height {height} and width {width}.")
    return _crop(image, box=box)


def pad_to_bounding_box(image, offset_height, offset_width, target_height, target_width):
    """Zero-pads images to ``target_height × target_width``, placing them at the offsets."""
    image = image_input(image, "pad_to_bounding_box")
    top, left, new_height, new_width = _box(offset_height, offset_width, target_height, target_width,
                                            "pad_to_bounding_box")
    height, width = static_shape(image)[-3:-1]
    bottom, right = new_height - top - height, new_width - left - width
    if bottom < 0 or right < 0:
        raise InvalidArgumentError(f"pad_to_bounding_box: images of height {height} and width {width} at "
                                   f"offset ({top}, {left}) do not fit in {new_height}×{new_width}.")
    return _pad(image, pads=((top, bottom), (left, right)))


def resize_with_crop_or_pad(image, target_height, target_width):
    """Centre-crops and/or zero-pads images to ``target_height × target_width`` (no interpolation).

    Example:
        >>> import companion as tf
        >>> tf.image.resize_with_crop_or_pad(tf.ones([4, 6, 1]), 6, 4).shape
        TensorShape([6, 4, 1])
    """
    image = image_input(image, "resize_with_crop_or_pad")
    target_height = static_int(target_height, "target_height")
    target_width = static_int(target_width, "target_width")
    height, width = static_shape(image)[-3:-1]
    crop_top, crop_left = max(height - target_height, 0) // 2, max(width - target_width, 0) // 2
    pad_top, pad_left = max(target_height - height, 0) // 2, max(target_width - width, 0) // 2
    crop_height, crop_width = min(target_height, height), min(target_width, width)
    cropped = crop_to_bounding_box(image, crop_top, crop_left, crop_height, crop_width)
    return pad_to_bounding_box(cropped, pad_top, pad_left, target_height, target_width)


def _box(offset_height, offset_width, target_height, target_width, what):
    box = tuple(static_int(v, f"{what}: {n}") for v, n in zip(
        (offset_height, offset_width, target_height, target_width),
        ("offset_height", "offset_width", "target_height", "target_width")))
    if min(box) < 0:
        raise InvalidArgumentError(f"{what}: offsets and sizes must be non-negative. Received "
                                   f"(offset_height, offset_width, target_height, target_width)={box}")
    return box


def resize_with_pad(image, target_height, target_width, method="bilinear", antialias=False):
    """Resizes each image to fit ``target_height x target_width`` keeping its aspect ratio, then pads it
    with zeros, centred, to exactly that size (TF's ``tf.image.resize_with_pad``: float32 images, unless
    ``method`` is "nearest").

    Example:
        >>> import companion as tf
        >>> tf.image.resize_with_pad(tf.ones([2, 4, 3]), 4, 4).shape
        TensorShape([4, 4, 3])
    """
    image = image_input(image, "resize_with_pad")
    target_height = static_int(target_height, "resize_with_pad: target_height")
    target_width = static_int(target_width, "resize_with_pad: target_width")
    if target_height <= 0 or target_width <= 0:
        raise ValueError(f"resize_with_pad: the target size must be positive. Received {target_height} x "
                         f"{target_width}.")
    # in float32, as TF computes them
    height, width = (np.float32(size) for size in static_shape(image)[-3:-1])
    ratio = max(width / np.float32(target_width), height / np.float32(target_height))
    resized_height, resized_width = height / ratio, width / ratio
    top = max(0, int(np.floor((np.float32(target_height) - resized_height) / np.float32(2))))
    left = max(0, int(np.floor((np.float32(target_width) - resized_width) / np.float32(2))))
    resized = resize(image, [int(resized_height), int(resized_width)], method=method, antialias=antialias)
    return pad_to_bounding_box(resized, top, left, target_height, target_width)
