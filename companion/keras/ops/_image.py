"""Keras 3's image ops (``keras.ops.image``): resizing, colour conversions, padding and cropping of
image batches (or single images), in Keras's ``channels_last``/``channels_first`` layouts."""

import jax
import numpy as np

import companion as _tf
from companion._core._errors import InvalidArgumentError
from companion._core._op import Op
from companion.keras.ops._base import call, dtype_of, hashable, prepare, tensor
from companion.keras.ops._nn import conv, depthwise_conv

__all__ = ["crop_images", "extract_patches", "extract_patches_3d", "gaussian_blur", "hsv_to_rgb",
           "map_coordinates", "pad_images", "resize", "rgb_to_grayscale", "rgb_to_hsv", "sobel_edges", "ssim"]

_METHODS = ("bilinear", "nearest", "bicubic", "lanczos3", "lanczos5", "area")


def _last(images, data_format):
    """``images`` channels-last, and a function putting results back in ``data_format``."""
    images = tensor(images)
    if len(images.shape) not in (3, 4):
        raise InvalidArgumentError(
            f"keras.ops.image: images must be 3-D (height, width, channels) or 4-D (batch, ...); received "
            f"shape {tuple(images.shape)}.")
    if (data_format or "channels_last") == "channels_last":
        return images, lambda out: out
    if data_format != "channels_first":
        raise InvalidArgumentError("keras.ops.image: data_format must be 'channels_last' or 'channels_first';"
                                   f" received {data_format!r}.")
    perm = [0, 2, 3, 1] if len(images.shape) == 4 else [1, 2, 0]
    back = [0, 3, 1, 2] if len(images.shape) == 4 else [2, 0, 1]
    return _tf.transpose(images, perm), lambda out: _tf.transpose(out, back)


def _crop_to_aspect(images, size):
    """The centred crop of ``images`` with the aspect ratio of ``size``."""
    height, width = images.shape[-3], images.shape[-2]
    crop_height = min(height, int(round(width * size[0] / size[1])))
    crop_width = min(width, int(round(height * size[1] / size[0])))
    top, left = (height - crop_height) // 2, (width - crop_width) // 2
    return images[..., top:top + crop_height, left:left + crop_width, :]


def resize(images, size, interpolation="bilinear", antialias=False, crop_to_aspect_ratio=False,
           pad_to_aspect_ratio=False, fill_mode="constant", fill_value=0.0, data_format=None):
    """``images`` resized to ``size = (height, width)`` with ``interpolation`` (TF's methods), in
    their own dtype (integer images are rounded)."""
    if interpolation not in _METHODS:
        raise InvalidArgumentError(f"keras.ops.image.resize: interpolation must be one of {_METHODS}; "
                                   f"received {interpolation!r}.")
    size = tuple(hashable(size))
    if len(size) != 2:
        raise InvalidArgumentError(
            f"keras.ops.image.resize: size must be (height, width); received {size!r}.")
    if pad_to_aspect_ratio:
        raise InvalidArgumentError("keras.ops.image.resize: pad_to_aspect_ratio=True is not supported; crop "
                                   "with crop_to_aspect_ratio=True or pad with ops.image.pad_images first.")
    images, back = _last(images, data_format)
    if crop_to_aspect_ratio:
        images = _crop_to_aspect(images, size)
    out = _tf.image.resize(images, size, method=interpolation, antialias=antialias)
    original = dtype_of(images)
    if dtype_of(out) != original:  # back to the input dtype, integers rounded and saturated, as Keras
        out = _tf.saturate_cast(_tf.round(out) if original.kind in "iu" else out, _tf.as_dtype(original))
    return back(out)


def _color(fn, name):
    def run(images, data_format=None):
        images, back = _last(images, data_format)
        return back(fn(images))

    run.__name__ = name
    run.__doc__ = f"Keras's ``image.{name}`` (channels of the last axis, or the first with channels_first)."
    return run


rgb_to_grayscale = _color(_tf.image.rgb_to_grayscale, "rgb_to_grayscale")
rgb_to_hsv = _color(_tf.image.rgb_to_hsv, "rgb_to_hsv")
hsv_to_rgb = _color(_tf.image.hsv_to_rgb, "hsv_to_rgb")


def _box(height, width, first, second, last_first, target, name):
    """Offsets and target size along one axis from any two of (before, after, target)."""
    given = [v is not None for v in (first, second, target)]
    if sum(given) != 2:
        raise InvalidArgumentError(
            f"keras.ops.image.{name}: give exactly two of the {last_first} amounts and the target size per "
            f"axis; received {first!r}, {second!r} and target {target!r}.")
    if target is None:
        return first, second
    return (target - height - second, second) if first is None else (first, target - height - first)


def pad_images(images, top_padding=None, left_padding=None, bottom_padding=None, right_padding=None,
               target_height=None, target_width=None, data_format=None):
    """``images`` zero-padded by the given amounts (or up to ``target_height``/``target_width``)."""
    images, back = _last(images, data_format)
    height, width = images.shape[-3], images.shape[-2]
    top, bottom = _box(height, width, top_padding, bottom_padding, "top/bottom", target_height, "pad_images")
    left, right = _box(width, height, left_padding, right_padding, "left/right", target_width, "pad_images")
    if min(top, bottom, left, right) < 0:
        raise InvalidArgumentError(f"keras.ops.image.pad_images: padding must be non-negative; received "
                                   f"top={top}, bottom={bottom}, left={left}, right={right}.")
    return back(_tf.image.pad_to_bounding_box(images, top, left, height + top + bottom, width + left + right))


def crop_images(images, top_cropping=None, left_cropping=None, bottom_cropping=None, right_cropping=None,
                target_height=None, target_width=None, data_format=None):
    """``images`` cropped by the given amounts (or down to ``target_height``/``target_width``)."""
    images, back = _last(images, data_format)
    height, width = images.shape[-3], images.shape[-2]
    top, bottom = _box(-height, width, top_cropping, bottom_cropping, "top/bottom",
                       None if target_height is None else -target_height, "crop_images")
    left, right = _box(-width, height, left_cropping, right_cropping, "left/right",
                       None if target_width is None else -target_width, "crop_images")
    if min(top, bottom, left, right) < 0 or top + bottom >= height or left + right >= width:
        raise InvalidArgumentError("keras.ops.image.crop_images: crops must be non-negative and leave pixels;"
                                   f" received top={top}, bottom={bottom}, left={left}, right={right} for "
                                   f"images of height {height} and width {width}.")
    kept_height, kept_width = height - top - bottom, width - left - right
    return back(_tf.image.crop_to_bounding_box(images, top, left, kept_height, kept_width))


def _patches(inputs, size, strides, dilation_rate, padding, data_format, spatial, name):
    """Patches as a convolution with a one-hot kernel: output channel ``k`` copies the ``k``-th value
    of the flattened ``(spatial window..., channels)`` patch."""
    inputs = tensor(inputs)
    size = (hashable(size),) * spatial if isinstance(hashable(size), int) else tuple(hashable(size))
    if len(size) != spatial or len(inputs.shape) not in (spatial + 1, spatial + 2):
        raise InvalidArgumentError(
            f"keras.ops.image.{name}: expects size as an int or {spatial} ints and inputs of rank "
            f"{spatial + 1} or {spatial + 2}; received size={size!r} and inputs of shape "
            f"{tuple(inputs.shape)}.")
    unbatched = len(inputs.shape) == spatial + 1
    if unbatched:
        inputs = _tf.expand_dims(inputs, 0)
    channels = inputs.shape[-1] if (data_format or "channels_last") == "channels_last" else inputs.shape[1]
    depth = int(np.prod(size)) * channels
    kernel = np.eye(depth, dtype=dtype_of(inputs)).reshape(*size, channels, depth)
    out = conv(inputs, kernel, strides=strides or size, padding=padding, data_format=data_format,
               dilation_rate=dilation_rate)
    return _tf.squeeze(out, 0) if unbatched else out


def extract_patches(images, size, strides=None, dilation_rate=1, padding="valid", data_format=None):
    """Non-overlapping (or ``strides``-spaced) ``size`` patches of images, each flattened into the
    channel axis in (row, column, channel) order; a 3-element ``size`` takes 3-D patches of volumes."""
    if not isinstance(hashable(size), int) and len(hashable(size)) == 3:
        return extract_patches_3d(images, size, strides, dilation_rate, padding, data_format)
    return _patches(images, size, strides, dilation_rate, padding, data_format, 2, "extract_patches")


def extract_patches_3d(volumes, size, strides=None, dilation_rate=1, padding="valid", data_format=None):
    """`extract_patches` for volumes: ``size`` 3-D patches flattened into the channel axis."""
    return _patches(volumes, size, strides, dilation_rate, padding, data_format, 3, "extract_patches_3d")


_FILL_MODES = ("constant", "nearest", "wrap", "mirror", "reflect")


def _map_coordinates(x, coordinates, order, mode, value):
    out = jax.scipy.ndimage.map_coordinates(x, list(coordinates), order, mode=mode, cval=value)
    return out.astype(x.dtype)


_MAP_COORDINATES = Op("map_coordinates", _map_coordinates, static=("order", "mode", "value"))


def map_coordinates(inputs, coordinates, order, fill_mode="constant", fill_value=0):
    """``inputs`` sampled at ``coordinates`` (one array per input axis) by nearest (``order=0``) or
    linear (``order=1``) interpolation; points outside are filled as ``fill_mode`` says.

    ``"reflect"`` and ``"mirror"`` are SciPy's (as Keras documents them and computes on JAX); Keras 3.15
    on TF mirrors negative coordinates in ``"reflect"`` mode and fails in ``"mirror"`` mode.
    """
    if order not in (0, 1) or fill_mode not in _FILL_MODES:
        raise InvalidArgumentError(
            f"keras.ops.image.map_coordinates supports order 0 or 1 and fill_mode in {_FILL_MODES}; "
            f"received order={order!r}, fill_mode={fill_mode!r}.")
    x = tensor(inputs)
    coordinates = prepare([coordinates], "float")[0]
    if coordinates.shape[0] != len(x.shape):
        raise InvalidArgumentError(
            f"keras.ops.image.map_coordinates needs one coordinate array per input axis ({len(x.shape)}); "
            f"received coordinates of shape {tuple(coordinates.shape)}.")
    params = {"order": order, "mode": fill_mode, "value": float(hashable(fill_value))}
    return call(_MAP_COORDINATES, [x, coordinates], params)


def _gaussian(size, sigma):
    offsets = np.arange(size) - (size - 1) / 2
    weights = np.exp(-0.5 * (offsets / sigma) ** 2)
    return weights / weights.sum()


def gaussian_blur(images, kernel_size=(3, 3), sigma=(1.0, 1.0), data_format=None):
    """``images`` blurred by a Gaussian of ``kernel_size`` and ``sigma`` (per axis), zero-padded to keep
    their size; as Keras, the kernel is the outer product of the second axis's 1-D Gaussian with the
    first's, laid out as ``kernel_size``."""
    images, back = _last(images, data_format)
    size, sigma = tuple(hashable(kernel_size)), tuple(hashable(sigma))
    if len(size) != 2 or len(sigma) != 2 or min(size) < 1 or min(sigma) <= 0:
        raise InvalidArgumentError(f"keras.ops.image.gaussian_blur: kernel_size must be 2 positive ints and "
                                   f"sigma 2 positive numbers; received {kernel_size!r} and {sigma!r}.")
    kernel = np.outer(_gaussian(size[1], sigma[1]), _gaussian(size[0], sigma[0])).reshape(*size, 1, 1)
    channels = images.shape[-1]
    kernel = np.tile(kernel, (1, 1, channels, 1)).astype(dtype_of(images))
    batched = len(images.shape) == 4
    out = depthwise_conv(images if batched else _tf.expand_dims(images, 0), kernel, padding="same")
    return back(out if batched else _tf.squeeze(out, 0))


def sobel_edges(images, data_format=None):
    """Sobel gradients of 4-D ``images``: ``(..., 2)`` with the vertical then horizontal response per
    channel (channels_first gives ``(batch, channels, height, width, 2)``)."""
    images, _ = _last(images, data_format)
    edges = _tf.image.sobel_edges(images)
    return _tf.transpose(edges, (0, 3, 1, 2, 4)) if data_format == "channels_first" else edges


def ssim(image1, image2, max_val=1.0, filter_size=11, filter_sigma=1.5, k1=0.01, k2=0.03, data_format=None):
    """Structural similarity of two images (batches): local statistics under a ``filter_size``
    Gaussian window (no padding), the SSIM map averaged over space and then channels."""
    first, _ = _last(image1, data_format)
    second, _ = _last(image2, data_format)
    original = dtype_of(first)
    first, second = prepare([first, second], "float")
    if tuple(first.shape) != tuple(second.shape):
        raise InvalidArgumentError(f"keras.ops.image.ssim needs images of one shape; received "
                                   f"{tuple(first.shape)} and {tuple(second.shape)}.")
    window = np.outer(_gaussian(filter_size, filter_sigma), _gaussian(filter_size, filter_sigma))
    kernel = np.tile(window.reshape(filter_size, filter_size, 1, 1), (1, 1, first.shape[-1], 1))
    kernel = kernel.astype(dtype_of(first))

    def local_mean(x):
        return depthwise_conv(x if len(x.shape) == 4 else _tf.expand_dims(x, 0), kernel)

    mean1, mean2 = local_mean(first), local_mean(second)
    var1 = local_mean(first * first) - mean1 * mean1
    var2 = local_mean(second * second) - mean2 * mean2
    covariance = local_mean(first * second) - mean1 * mean2
    c1, c2 = (k1 * max_val) ** 2, (k2 * max_val) ** 2
    index = ((2 * mean1 * mean2 + c1) * (2 * covariance + c2)
             / ((mean1 * mean1 + mean2 * mean2 + c1) * (var1 + var2 + c2)))
    out = _tf.reduce_mean(index, axis=[1, 2, 3])
    out = out if len(first.shape) == 4 else _tf.squeeze(out, 0)
    return tensor(out, original) if original.kind == "f" else out
