"""`max_pool_with_argmax`: 2-D max pooling that also says where each maximum came from."""

import jax.numpy as jnp
import numpy as np

from companion._core import _dtypes
from companion._core._convert import as_input
from companion._core._errors import InvalidArgumentError, UnimplementedError
from companion._core._op import op
from companion._ops._nn import spatial_tuple


def max_pool_with_argmax(input, ksize, strides, padding, data_format="NHWC",  # noqa: A002
                         output_dtype=_dtypes.int64, include_batch_in_index=False, name=None):
    """Max pooling of ``[batch, height, width, channels]`` images, with the flat index of each maximum.

    The index of input element ``[b, y, x, c]`` is ``(y * width + x) * channels + c``, or
    ``((b * height + y) * width + x) * channels + c`` with ``include_batch_in_index``. A window
    with several equal maxima points at the first in row-major order; padded positions (``"SAME"``)
    never win. The gradient flows to the input through the pooled values (as `max_pool2d`'s).

    Args:
        input: a real tensor of rank 4 (``"NHWC"``, the only layout TF supports here).
        ksize, strides: an int, or a list of 1, 2 or 4 ints (batch and channel entries 1).
        padding: ``"VALID"`` or ``"SAME"``.
        output_dtype: int64 (default) or int32, the indices' dtype.
        include_batch_in_index: whether the indices count across the batch.

    Returns:
        ``(output, argmax)``, both of the pooled shape.

    Example:
        >>> import companion as tf
        >>> x = tf.reshape(tf.constant([1.0, 5.0, 3.0, 2.0]), [1, 2, 2, 1])
        >>> output, argmax = tf.nn.max_pool_with_argmax(x, ksize=2, strides=2, padding="VALID")
        >>> float(output[0, 0, 0, 0]), int(argmax[0, 0, 0, 0])
        (5.0, 1)
    """
    what = "max_pool_with_argmax"
    if data_format != "NHWC":
        raise ValueError(f"{what}: data_format must be 'NHWC' (TensorFlow implements no other layout for "
                         f"it). Received: data_format={data_format!r}")
    x = as_input(input)
    if not x.dtype.is_numeric or x.dtype.is_complex or x.dtype.is_bool:
        raise TypeError(f"{what} needs a real numeric tensor. Received dtype {x.dtype.name}: {x!s}")
    if x.ndim != 4:
        raise InvalidArgumentError(f"{what}: input must be 4-dimensional [batch, height, width, channels]. "
                                   f"Received shape {list(x.shape)}")
    window = _spatial(ksize, "ksize")
    steps = _spatial(strides, "strides")
    if not isinstance(padding, str) or padding.upper() not in ("SAME", "VALID"):
        raise InvalidArgumentError(f"{what}: padding must be 'SAME' or 'VALID'. Received: "
                                   f"padding={padding!r}")
    index_dtype = _dtypes.as_dtype(output_dtype)
    if index_dtype.name not in ("int32", "int64"):
        raise TypeError(f"{what}: output_dtype must be int32 or int64. Received: "
                        f"output_dtype={index_dtype.name}")
    return _pool_argmax(x, window=window, strides=steps, padding=padding.upper(),
                        include_batch=bool(include_batch_in_index), index_dtype=index_dtype._np)


def _spatial(value, arg):
    values = [value] if isinstance(value, (int, np.integer)) else list(value)
    if len(values) == 4 and (values[0] != 1 or values[3] != 1):
        raise UnimplementedError(f"max_pool_with_argmax pools over height and width only: `{arg}` must be "
                                 f"1 in the batch and channel dimensions. Received: {arg}={value!r}")
    return spatial_tuple(value, 2, True, "max_pool_with_argmax", arg)


@op("max_pool_with_argmax", static=("window", "strides", "padding", "include_batch", "index_dtype"))
def _pool_argmax(x, window, strides, padding, include_batch, index_dtype):
    batch, height, width, channels = x.shape
    rows, row_ok = _positions(height, window[0], strides[0], padding)  # [out_h, k_h]
    cols, col_ok = _positions(width, window[1], strides[1], padding)   # [out_w, k_w]
    r = rows[:, None, :, None]
    c = cols[None, :, None, :]
    valid = (row_ok[:, None, :, None] & col_ok[None, :, None, :]).reshape(len(rows), len(cols), -1)
    patches = x[:, np.clip(r, 0, height - 1), np.clip(c, 0, width - 1), :]  # [b, oh, ow, kh, kw, ch]
    patches = patches.reshape(batch, len(rows), len(cols), -1, channels)
    flat_pos = (r * width + c).reshape(len(rows), len(cols), -1)  # y * width + x per window slot
    best = _first_max(patches, valid[None, :, :, :, None])  # [b, oh, ow, ch]: a window slot
    output = jnp.take_along_axis(patches, best[:, :, :, None, :], axis=3)[:, :, :, 0, :]
    position = jnp.broadcast_to(jnp.asarray(flat_pos)[None, :, :, :, None], patches.shape)
    chosen = jnp.take_along_axis(position, best[:, :, :, None, :], 3)[:, :, :, 0]
    index = chosen.astype(np.int64) * channels + jnp.arange(channels, dtype=np.int64)
    if include_batch:
        index = index + (jnp.arange(batch, dtype=np.int64) * (height * width * channels))[:, None, None, None]
    return output, index.astype(index_dtype)


def _first_max(patches, valid):
    """Per window, the first valid slot holding the window's maximum (row-major order)."""
    floating = jnp.issubdtype(patches.dtype, jnp.floating)
    lowest = -jnp.inf if floating else jnp.iinfo(patches.dtype).min
    masked = jnp.where(valid, patches, jnp.asarray(lowest, patches.dtype))
    peak = jnp.max(masked, axis=3, keepdims=True)
    slot = jnp.arange(patches.shape[3])[None, None, None, :, None]
    hit = valid & (masked == peak)
    return jnp.min(jnp.where(hit, slot, patches.shape[3]), axis=3).clip(0, patches.shape[3] - 1)


def _positions(size, k, stride, padding):
    """Input positions [out, k] each output window covers, and which of them are inside the input."""
    if padding == "VALID":
        out, before = max((size - k) // stride + 1, 0), 0
    else:
        out = -(-size // stride)
        before = max((out - 1) * stride + k - size, 0) // 2
    positions = np.arange(out)[:, None] * stride + np.arange(k)[None, :] - before
    return positions, (positions >= 0) & (positions < size)
