"""Image measures and derivatives: `total_variation`, `psnr`, `ssim`, `image_gradients`, `sobel_edges`."""

import jax
import jax.numpy as jnp
import numpy as np

from companion._core._errors import InvalidArgumentError
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


def _gaussian_kernel(size, sigma):
    """TF's ``size x size`` Gaussian window (a softmax of ``-(dy^2 + dx^2) / (2 sigma^2)``)."""
    coords = np.arange(size, dtype=np.float32) - np.float32(size - 1) / 2
    logits = coords ** 2 * np.float32(-0.5 / sigma ** 2)
    logits = (logits[None, :] + logits[:, None]).ravel()
    weights = np.exp(logits - logits.max())
    return (weights / weights.sum()).reshape(size, size).astype(np.float32)


@op("ssim", static=("size", "sigma", "k1", "k2"))
def _ssim(a, b, max_val, size, sigma, k1, k2):
    channels = a.shape[-1]
    kernel = jnp.asarray(np.tile(_gaussian_kernel(size, sigma)[:, :, None, None], (1, 1, 1, channels)))
    batch = a.shape[:-3]

    def blur(x):
        x = x.reshape((-1,) + x.shape[-3:])
        out = jax.lax.conv_general_dilated(x, kernel, (1, 1), "VALID", feature_group_count=channels,
                                           dimension_numbers=("NHWC", "HWIO", "NHWC"))
        return out.reshape(batch + out.shape[1:])

    c1, c2 = (k1 * max_val) ** 2, (k2 * max_val) ** 2
    mean_a, mean_b = blur(a), blur(b)
    num0 = mean_a * mean_b * 2.0
    den0 = jnp.square(mean_a) + jnp.square(mean_b)
    luminance = (num0 + c1) / (den0 + c1)
    num1 = blur(a * b) * 2.0
    den1 = blur(jnp.square(a) + jnp.square(b))
    cs = (num1 - num0 + c2) / (den1 - den0 + c2)
    return jnp.mean(jnp.mean(luminance * cs, axis=(-3, -2)), axis=-1)


def ssim(img1, img2, max_val, filter_size=11, filter_sigma=1.5, k1=0.01, k2=0.03, return_index_map=False):
    """The structural similarity of each image pair (TF's ``tf.image.ssim``): means, variances and the
    covariance under a ``filter_size`` Gaussian window (``filter_sigma``), over the valid positions,
    averaged over the channels. Images (at least ``filter_size`` pixels high and wide) are converted
    to float32 in [0, 1] first, ``max_val`` with them. One value per image of a batch.

    Example:
        >>> import companion as tf
        >>> image = tf.reshape(tf.range(64.0) / 64.0, [8, 8, 1])
        >>> print(tf.image.ssim(image, image, max_val=1.0, filter_size=3))
        companion.Tensor(1.0, shape=(), dtype=float32)
    """
    img1, img2 = image_input(img1, "ssim", ranks=(3, 4, 5)), image_input(img2, "ssim", ranks=(3, 4, 5))
    if return_index_map:
        raise NotImplementedError("ssim: return_index_map=True is not supported; it returns the mean SSIM.")
    if img1.dtype != img2.dtype:
        raise TypeError(f"ssim needs two images of one dtype. Received {img1.dtype.name} and "
                        f"{img2.dtype.name}.")
    shape1, shape2 = tuple(img1.shape.as_list()), tuple(img2.shape.as_list())
    if shape1[-3:] != shape2[-3:] or len(shape1) != len(shape2):
        raise ValueError(f"ssim needs images of one shape. Received shapes {shape1} and {shape2}.")
    size = int(filter_size)
    if min(shape1[-3:-1]) < size:
        raise InvalidArgumentError(f"ssim: the images ({shape1[-3]} x {shape1[-2]}) must be at least "
                                   f"filter_size={size} pixels high and wide. Pass a smaller filter_size.")
    max_val = convert_image_dtype(cast(max_val, img1.dtype), "float32")
    return _ssim(convert_image_dtype(img1, "float32"), convert_image_dtype(img2, "float32"), max_val,
                 size=size, sigma=float(filter_sigma), k1=float(k1), k2=float(k2))
