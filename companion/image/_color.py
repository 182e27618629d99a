"""Pixel-value ops: grayscale conversions, `per_image_standardization`, brightness, contrast and gamma
(and the seeded random brightness and contrast)."""

import jax
import jax.numpy as jnp

from companion._core import _dtypes
from companion._core._convert import as_input
from companion._core._op import op
from companion._ops._image_convert import convert_image_dtype
from companion._ops._math import cast
from companion.image._checks import image_input, random_key, static_shape

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


@op("adjust_gamma")
def _gamma(image, gamma, gain):
    return gain * image ** gamma


def adjust_gamma(image, gamma=1, gain=1):
    """``gain * image ** gamma`` on float pixels (integer images are converted and back, saturating).

    Example:
        >>> import companion as tf
        >>> tf.image.adjust_gamma(tf.constant([[[0.25]]]), gamma=0.5).numpy().tolist()
        [[[0.5]]]
    """
    image = as_input(image)
    if isinstance(gamma, (int, float)) and gamma < 0:
        raise ValueError(f"Gamma should be a non-negative real number. Received: gamma={gamma!r}")
    floats = image if image.dtype.name in ("float16", "float32") else convert_image_dtype(image, "float32")
    adjusted = _gamma(floats, as_input(gamma, floats.dtype), as_input(gain, floats.dtype))
    return convert_image_dtype(adjusted, image.dtype, saturate=True)


def random_brightness(image, max_delta, seed=None):
    """`adjust_brightness` by a delta drawn uniformly from ``[-max_delta, max_delta)`` (seeded by TF's
    rules; the draws differ from TF's)."""
    if max_delta < 0:
        raise ValueError(f"max_delta must be non-negative. Received: max_delta={max_delta!r}")
    delta = uniform_scalar(seed, -float(max_delta), float(max_delta), image)
    return adjust_brightness(image, delta)


def random_contrast(image, lower, upper, seed=None):
    """`adjust_contrast` by a factor drawn uniformly from ``[lower, upper)``."""
    if upper <= lower:
        raise ValueError(f"upper must be > lower. Received: lower={lower!r}, upper={upper!r}")
    if lower < 0:
        raise ValueError(f"lower must be non-negative. Received: lower={lower!r}")
    return adjust_contrast(image, uniform_scalar(seed, float(lower), float(upper), image))


@op("random_uniform_scalar", static=("low", "high", "dtype"))
def _uniform_scalar(key, low, high, dtype):
    return jax.random.uniform(key, (), dtype=dtype, minval=low, maxval=high)


def uniform_scalar(seed, low, high, image):
    """One draw from ``[low, high)`` (seeded by TF's rules) in the float dtype ``image`` is adjusted in."""
    image = as_input(image)
    return _uniform_scalar(random_key(seed), low=low, high=high, dtype=_float_dtype(image)._np)
