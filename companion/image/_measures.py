"""Image measures and derivatives: `total_variation`, `psnr`, `image_gradients`, `sobel_edges`."""

import jax
import jax.numpy as jnp
import numpy as np

from companion._core._op import op
from companion._ops._image_convert import convert_image_dtype
from companion._ops._math import cast
from companion.image._checks import image_input


@op("total_variation")
def _total_variation(images):
    rows = jnp.abs(images[..., 1:, :, :] - images[..., :-1, :, :])
    cols = jnp.abs(images[..., :, 1:, :] - images[..., :, :-1, :])
    return jnp.sum(rows, axis=(-3, -2, -1)) + jnp.sum(cols, axis=(-3, -2, -1))


def total_variation(images, name=None):
    """The sum of absolute differences between neighbouring pixels (down and across), per image of a
    batch (a scalar for one image), in the images' dtype.

    Example:
        >>> import companion as tf
        >>> int(tf.image.total_variation(tf.reshape(tf.range(4), [2, 2, 1])))
        6
    """
    images = image_input(images, "total_variation")
    if images.dtype.is_unsigned:
        raise TypeError(f"total_variation needs signed or float images (TF's abs has no {images.dtype.name} "
                        "kernel). Cast them first, e.g. companion.cast(images, companion.int32).")
    return _total_variation(images)


@op("psnr")
def _psnr(a, b, max_val):
    mse = jnp.mean(jnp.square(a - b), axis=(-3, -2, -1))
    return 20 * jnp.log(max_val) / float(np.log(10.0)) - np.float32(10 / np.log(10)) * jnp.log(mse)


def psnr(a, b, max_val, name=None):
    """Peak signal-to-noise ratio of each image pair in dB: ``20 log10(max_val) - 10 log10(mse)``;
    images are converted to float32 in [0, 1] first (``max_val`` with them, as TF does)."""
    a, b = image_input(a, "psnr"), image_input(b, "psnr")
    if a.dtype != b.dtype:
        raise TypeError(f"psnr needs two images of one dtype. Received {a.dtype.name} and {b.dtype.name}.")
    max_val = convert_image_dtype(cast(max_val, a.dtype), "float32")
    return _psnr(convert_image_dtype(a, "float32"), convert_image_dtype(b, "float32"), max_val)


@op("image_gradients")
def _gradients(image):
    dy = jnp.concatenate([image[:, 1:] - image[:, :-1], jnp.zeros_like(image[:, :1])], axis=1)
    dx = jnp.concatenate([image[:, :, 1:] - image[:, :, :-1], jnp.zeros_like(image[:, :, :1])], axis=2)
    return dy, dx


def image_gradients(image):
    """``(dy, dx)``: forward differences down and across a 4-D batch, each the input's shape (the last
    row of ``dy`` and column of ``dx`` are 0)."""
    image = image_input(image, "image_gradients", ranks=(4,))
    return _gradients(image)


_SOBEL = np.array([[[-1, -2, -1], [0, 0, 0], [1, 2, 1]], [[-1, 0, 1], [-2, 0, 2], [-1, 0, 1]]], np.float32)


@op("sobel_edges")
def _sobel(image):
    padded = jnp.pad(image, ((0, 0), (1, 1), (1, 1), (0, 0)), mode="reflect")
    channels = image.shape[-1]
    kernel = jnp.asarray(np.transpose(_SOBEL, (1, 2, 0)), image.dtype)  # [3, 3, 2]
    kernel = jnp.tile(kernel[:, :, None, :], (1, 1, channels, 1)).reshape(3, 3, 1, channels * 2)
    out = jax.lax.conv_general_dilated(padded, kernel, (1, 1), "VALID", feature_group_count=channels,
                                       dimension_numbers=("NHWC", "HWIO", "NHWC"))
    return out.reshape(image.shape + (2,))


def sobel_edges(image):
    """The Sobel filter responses ``[batch, height, width, channels, 2]`` (vertical then horizontal
    gradient) of a float 4-D batch, with reflected borders as TF."""
    image = image_input(image, "sobel_edges", ranks=(4,))
    if not image.dtype.is_floating:
        image = cast(image, "float32")
    return _sobel(image)
