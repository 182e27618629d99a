"""Pixel-value ops: grayscale conversions, `per_image_standardization`, brightness and contrast."""

import jax.numpy as jnp

from companion._core import _dtypes
from companion._core._convert import as_input
from companion._core._op import op
from companion._ops._image_convert import convert_image_dtype
from companion._ops._math import cast
from companion.image._checks import image_input, static_shape

_RGB_WEIGHTS = (0.2989, 0.5870, 0.1140)  # TensorFlow's (ITU-R BT.601 luma, rounded)


@op("rgb_to_grayscale")
def _luma(image):
    return jnp.tensordot(image, jnp.asarray(_RGB_WEIGHTS, image.dtype), axes=[[-1], [-1]])[..., None]


def rgb_to_grayscale(images, name=None):
    """Converts RGB images ``[..., 3]`` to grayscale ``[..., 1]`` with TensorFlow's weights.

    ``gray = 0.2989 R + 0.5870 G + 0.1140 B``, computed in float32 and converted back to the
    input dtype (so uint8 stays uint8, with `convert_image_dtype`'s rounding).

    Example:
        >>> import companion as tf
        >>> print(tf.image.rgb_to_grayscale(tf.constant([[[1.0, 0.0, 0.0]]])))
        companion.Tensor([[[0.2989]]], shape=(1, 1, 1), dtype=float32)
    """
    images = _channels(images, 3, "rgb_to_grayscale")
    floats = convert_image_dtype(images, _float_dtype(images))
    return convert_image_dtype(_luma(floats), images.dtype)


@op("grayscale_to_rgb")
def _tile3(image):
    return jnp.concatenate([image] * 3, axis=-1)


def grayscale_to_rgb(images, name=None):
    """Repeats the single channel of ``[..., 1]`` images three times: ``[..., 3]``."""
    return _tile3(_channels(images, 1, "grayscale_to_rgb"))


@op("per_image_standardization")
def _standardize(image):
    axes = (-3, -2, -1)
    count = image.shape[-3] * image.shape[-2] * image.shape[-1]
    mean = jnp.mean(image, axis=axes, keepdims=True)
    stddev = jnp.std(image, axis=axes, keepdims=True)
    adjusted = jnp.maximum(stddev, jnp.asarray(count, image.dtype) ** -0.5)
    return (image - mean) / adjusted


def per_image_standardization(image, name=None):
    """Scales each image to mean 0 and variance 1: ``(x - mean) / max(stddev, 1 / sqrt(num_pixels))``.

    Statistics are over height, width and channels of each image. The result is float32
    whatever the input dtype, as in TensorFlow (integers are cast without rescaling).

    Example:
        >>> import companion as tf
        >>> out = tf.image.per_image_standardization(tf.reshape(tf.range(8.0), [2, 2, 2]))
        >>> abs(round(float(tf.reduce_mean(out)), 6)), round(float(tf.math.reduce_std(out)), 6)
        (0.0, 1.0)
    """
    image = image_input(image, "per_image_standardization")
    return _standardize(cast(image, _dtypes.float32))


@op("adjust_brightness")
def _add_delta(image, delta):
    return image + delta


def adjust_brightness(image, delta):
    """Adds ``delta`` to every pixel (in float; integer images are converted and back)."""
    image = as_input(image)
    floats = convert_image_dtype(image, _float_dtype(image))
    adjusted = _add_delta(floats, as_input(delta, floats.dtype))
    return convert_image_dtype(adjusted, image.dtype, saturate=True)


@op("adjust_contrast")
def _contrast(image, factor):
    mean = jnp.mean(image, axis=(-3, -2), keepdims=True)
    return (image - mean) * factor + mean


def adjust_contrast(images, contrast_factor):
    """Scales each channel's distance from its mean: ``(x - mean) * contrast_factor + mean``."""
    images = image_input(images, "adjust_contrast")
    floats = convert_image_dtype(images, _float_dtype(images))
    adjusted = _contrast(floats, as_input(contrast_factor, floats.dtype))
    return convert_image_dtype(adjusted, images.dtype, saturate=True)


def _channels(images, count, what):
    images = as_input(images)
    if images.ndim < 1 or static_shape(images)[-1] != count:
        raise ValueError(f"{what} needs images whose last axis has {count} channel(s). Received shape "
                         f"{tuple(images.shape.as_list())}.")
    return images


def _float_dtype(image):
    return image.dtype if image.dtype.is_floating else _dtypes.float32
