"""`extract_patches`: every ``size`` window of each image, flattened into the channels (TF's
ExtractImagePatches), eagerly, traced and under a tape."""

import jax.numpy as jnp

from companion._core._convert import as_input
from companion._core._errors import InvalidArgumentError, UnimplementedError
from companion._core._op import op
from companion._ops._static import static_ints
from companion.image._checks import static_shape


@op("extract_patches", static=("sizes", "strides", "rates", "pads", "out"))
def _patches(images, sizes, strides, rates, pads, out):
    padded = jnp.pad(images, ((0, 0), pads[0], pads[1], (0, 0)))
    windows = []
    for row in range(sizes[0]):
        for col in range(sizes[1]):
            top, left = row * rates[0], col * rates[1]
            windows.append(padded[:, top:top + (out[0] - 1) * strides[0] + 1:strides[0],
                                  left:left + (out[1] - 1) * strides[1] + 1:strides[1], :])
    stacked = jnp.stack(windows, axis=-2)  # [batch, rows, cols, size_h * size_w, channels]
    return stacked.reshape(stacked.shape[:3] + (-1,))


def _attr(value, name):
    value = static_ints(value, f"extract_patches: {name}")
    if len(value) != 4:
        raise InvalidArgumentError(f"Length for attr '{name}' of {len(value)} must be at least minimum 4 "
                                   f"(extract_patches takes [1, {name}_rows, {name}_cols, 1]).")
    return value


def _output_size(size, window, stride, rate, padding):
    """(output size, (pad before, pad after)) along one spatial dimension, by TF's rule."""
    effective = (window - 1) * rate + 1
    if padding == "VALID":
        return max((size - effective) // stride + 1, 0), (0, 0)
    out = -(-size // stride)
    total = max((out - 1) * stride + effective - size, 0)
    return out, (total // 2, total - total // 2)


def extract_patches(images, sizes, strides, rates, padding, name=None):
    """The ``sizes[1] x sizes[2]`` patches of each image of a 4-D batch, ``strides`` apart, their pixels
    ``rates`` apart, each flattened (rows, then columns, then channels) into the last dimension:
    ``[batch, out_rows, out_cols, sizes[1] * sizes[2] * channels]``. ``padding``: "VALID" (whole
    patches only) or "SAME" (zero padding, ``ceil(size / stride)`` patches per dimension).

    Example:
        >>> import companion as tf
        >>> images = tf.reshape(tf.range(16.0), [1, 4, 4, 1])
        >>> patches = tf.image.extract_patches(images, [1, 2, 2, 1], [1, 2, 2, 1], [1, 1, 1, 1], "VALID")
        >>> print(patches[0, 0])
        companion.Tensor(
        [[0. 1. 4. 5.]
         [2. 3. 6. 7.]], shape=(2, 4), dtype=float32)
    """
    images = as_input(images)
    sizes, strides, rates = _attr(sizes, "ksizes"), _attr(strides, "strides"), _attr(rates, "rates")
    if padding not in ("SAME", "VALID"):
        raise InvalidArgumentError(f'Value for attr \'padding\' of "{padding}" is not in the list of allowed '
                                   'values: "SAME", "VALID"')
    if sizes[0] != 1 or sizes[3] != 1:
        raise UnimplementedError(f"Only support ksizes across space (extract_patches: sizes must be "
                                 f"[1, rows, cols, 1]). Received {list(sizes)}.")
    if strides[0] != 1 or strides[3] != 1:
        raise UnimplementedError(f"Only support strides across space. Received {list(strides)}.")
    if rates[0] != 1 or rates[3] != 1:
        raise UnimplementedError(f"Only support rates across space. Received {list(rates)}.")
    shape = static_shape(images)
    if len(shape) != 4:
        raise InvalidArgumentError(f"input must be 4-dimensional{list(shape)} (extract_patches takes a batch "
                                   "[batch, height, width, channels]).")
    rows, pad_rows = _output_size(shape[1], sizes[1], strides[1], rates[1], padding)
    cols, pad_cols = _output_size(shape[2], sizes[2], strides[2], rates[2], padding)
    return _patches(images, sizes=tuple(sizes[1:3]), strides=tuple(strides[1:3]), rates=tuple(rates[1:3]),
                    pads=(pad_rows, pad_cols), out=(rows, cols))
