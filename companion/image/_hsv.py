"""Hue, saturation and value: `rgb_to_hsv`, `hsv_to_rgb`, `adjust_hue`, `adjust_saturation` and their
seeded random versions. HSV components are in [0, 1], hue as a fraction of a turn, as in TF."""

import jax.numpy as jnp

from companion._core._convert import as_input
from companion._core._op import op
from companion._ops._image_convert import convert_image_dtype
from companion.image._checks import image_input, static_shape
from companion.image._color import uniform_scalar


def _to_hsv(rgb):
    r, g, b = rgb[..., 0], rgb[..., 1], rgb[..., 2]
    value = jnp.max(rgb, axis=-1)
    delta = value - jnp.min(rgb, axis=-1)
    saturation = jnp.where(value > 0, delta / jnp.where(value > 0, value, 1), 0)
    safe = jnp.where(delta > 0, delta, 1)
    hue = jnp.where(value == r, (g - b) / safe, jnp.where(value == g, 2 + (b - r) / safe, 4 + (r - g) / safe))
    hue = jnp.where(delta > 0, hue / 6.0, 0)
    hue = jnp.where(hue < 0, hue + 1, hue)
    return jnp.stack([hue, saturation, value], axis=-1)


def _to_rgb(hsv):
    h, s, v = hsv[..., 0], hsv[..., 1], hsv[..., 2]
    sector = h * 6.0
    channels = []
    for offset in (5.0, 3.0, 1.0):  # R, G, B: v - v s max(0, min(k, 4 - k, 1)), k = (offset + 6h) mod 6
        k = jnp.mod(offset + sector, 6.0)
        channels.append(v - v * s * jnp.clip(jnp.minimum(k, 4.0 - k), 0.0, 1.0))
    return jnp.stack(channels, axis=-1)


@op("rgb_to_hsv")
def _rgb_to_hsv(image):
    return _to_hsv(image)


@op("hsv_to_rgb")
def _hsv_to_rgb(image):
    return _to_rgb(image)


@op("adjust_hue")
def _adjust_hue(image, delta):
    hsv = _to_hsv(image)
    hue = hsv[..., 0] + delta
    return _to_rgb(hsv.at[..., 0].set(hue - jnp.floor(hue)))


@op("adjust_saturation")
def _adjust_saturation(image, factor):
    hsv = _to_hsv(image)
    return _to_rgb(hsv.at[..., 1].set(jnp.clip(hsv[..., 1] * factor, 0.0, 1.0)))


def _rgb(images, what):
    images = image_input(images, what, ranks=(1, 2, 3, 4, 5))
    if static_shape(images)[-1] != 3:
        raise ValueError(f"{what} needs RGB images whose last axis has 3 channels. Received shape "
                         f"{tuple(images.shape.as_list())}.")
    return images


def _float_image(images):
    return images if images.dtype.is_floating else convert_image_dtype(images, "float32")


def rgb_to_hsv(images, name=None):
    """RGB in [0, 1] to hue, saturation, value in [0, 1] (float images).

    Example:
        >>> import companion as tf
        >>> [round(float(c), 4) for c in tf.image.rgb_to_hsv([[[0.0, 1.0, 0.0]]])[0, 0]]
        [0.3333, 1.0, 1.0]
    """
    images = _rgb(images, "rgb_to_hsv")
    if not images.dtype.is_floating:
        raise TypeError(f"rgb_to_hsv needs float images in [0, 1]. Received dtype {images.dtype.name}; "
                        "convert with companion.image.convert_image_dtype first.")
    return _rgb_to_hsv(images)


def hsv_to_rgb(images, name=None):
    """Hue, saturation, value in [0, 1] back to RGB in [0, 1] (float images)."""
    images = _rgb(images, "hsv_to_rgb")
    if not images.dtype.is_floating:
        raise TypeError(f"hsv_to_rgb needs float images. Received dtype {images.dtype.name}.")
    return _hsv_to_rgb(images)


def adjust_hue(image, delta, name=None):
    """Rotates the hue by ``delta`` (a fraction of a turn, in [-1, 1]) in HSV space; integer images
    are converted to float and back."""
    image = _rgb(image, "adjust_hue")
    floats = _float_image(image)
    out = _adjust_hue(floats, as_input(delta, floats.dtype))
    return convert_image_dtype(out, image.dtype, saturate=True)


def adjust_saturation(image, saturation_factor, name=None):
    """Scales the saturation by ``saturation_factor`` (clipped to [0, 1]) in HSV space."""
    image = _rgb(image, "adjust_saturation")
    floats = _float_image(image)
    out = _adjust_saturation(floats, as_input(saturation_factor, floats.dtype))
    return convert_image_dtype(out, image.dtype, saturate=True)


def random_hue(image, max_delta, seed=None):
    """`adjust_hue` by a delta drawn uniformly from ``[-max_delta, max_delta]`` (``max_delta`` in
    [0, 0.5]); seeded by TF's rules, the draws differ from TF's."""
    if not 0 <= max_delta <= 0.5:
        raise ValueError(f"max_delta must be in the interval [0, 0.5]. Received: max_delta={max_delta!r}")
    return adjust_hue(image, uniform_scalar(seed, -float(max_delta), float(max_delta), image))


def random_saturation(image, lower, upper, seed=None):
    """`adjust_saturation` by a factor drawn uniformly from ``[lower, upper)``."""
    _check_range(lower, upper)
    return adjust_saturation(image, uniform_scalar(seed, float(lower), float(upper), image))


def _check_range(lower, upper):
    if upper <= lower:
        raise ValueError(f"upper must be > lower. Received: lower={lower!r}, upper={upper!r}")
    if lower < 0:
        raise ValueError(f"lower must be non-negative. Received: lower={lower!r}")
