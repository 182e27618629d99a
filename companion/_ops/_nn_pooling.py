"""Pooling ops of `companion.nn`: max and average pooling over 1, 2 or 3 spatial dimensions."""

import functools

import jax
import jax.numpy as jnp
import numpy as np

from companion._core._convert import as_input
from companion._core._op import op
from companion._ops._nn import channels_last, check_padding, check_rank, float_input, spatial_tuple

# -- pure ops --------------------------------------------------------------------------------

@op("max_pool", static=("window", "strides", "padding"))
def _max_pool(x, window, strides, padding):
    floating = jnp.issubdtype(x.dtype, jnp.floating)
    lowest = np.array(-np.inf if floating else np.iinfo(x.dtype).min, x.dtype)  # NumPy: a known constant
    if floating and window == strides and padding in ("VALID", "SAME"):
        return _tiled_max_pool(x, window, padding, lowest)
    return jax.lax.reduce_window(x, lowest, jax.lax.max, window, strides, padding)


def _tiled_max_pool(x, window, padding, lowest):
    """Max pooling whose windows tile the input (stride = window, the usual 2x2/2): the input,
    cropped (VALID) or padded (SAME) to whole windows, reshaped so each window is axes of its own
    and reduced over them. Same values as ``reduce_window``; its gradient (`_window_max`) runs as
    elementwise ops, where XLA's CPU select-and-scatter took ~8x as long."""
    pads, shape = [], []
    for size, k in zip(x.shape, window):
        if padding == "VALID":
            out = size // k
            pads.append((0, out * k - size, 0))  # a negative high pad crops
        else:
            out = -(-size // k)
            total = out * k - size
            pads.append((total // 2, total - total // 2, 0))
        shape += [out, k]
    tiles = jax.lax.pad(x, lowest, pads).reshape(shape)
    return _window_max(tiles, tuple(range(1, len(shape), 2)))


@functools.partial(jax.custom_jvp, nondiff_argnums=(1,))
def _window_max(tiles, axes):
    return jnp.max(tiles, axis=axes)


@_window_max.defjvp
def _window_max_jvp(axes, primals, tangents):
    # the derivative flows from the first maximum of each window in row-major order, as
    # TensorFlow's MaxPoolGrad and XLA's select-and-scatter route it (jnp.max splits ties)
    (tiles,), (tangent,) = primals, tangents
    out = jnp.max(tiles, axis=axes)
    position = sum(jax.lax.broadcasted_iota(np.int32, tiles.shape, axis) * int(np.prod(
        [tiles.shape[a] for a in axes if a > axis], dtype=np.int64)) for axis in axes)
    hit = tiles == jnp.expand_dims(out, axes)
    first = jnp.min(jnp.where(hit, position, np.iinfo(np.int32).max), axis=axes, keepdims=True)
    return out, jnp.sum(jnp.where(hit & (position == first), tangent, jnp.zeros_like(tangent)), axis=axes)


@op("avg_pool", static=("window", "strides", "padding"))
def _avg_pool(x, window, strides, padding):
    zero = np.array(0, x.dtype)
    total = jax.lax.reduce_window(x, zero, jax.lax.add, window, strides, padding)
    counts = jax.lax.reduce_window(jnp.ones_like(x), zero, jax.lax.add, window, strides, padding)
    return total / counts  # with "SAME", border windows average their valid elements only


# -- public functions ----------------------------------------------------------------------

def max_pool2d(input, ksize, strides, padding, data_format="NHWC", name=None):  # noqa: A002
    """The maximum over each ``ksize`` window of a batch of images.

    Args:
        input: a tensor of shape ``[batch, height, width, channels]`` (``"NHWC"``) or
            ``[batch, channels, height, width]`` (``"NCHW"``).
        ksize: the window size: an int, or a list of 1, 2 or 4 ints.
        strides: the window step, in the same forms as ``ksize``.
        padding: ``"VALID"`` (windows inside the input) or ``"SAME"`` (output size
            ``ceil(in / stride)``; padded positions never win).
        data_format: ``"NHWC"`` or ``"NCHW"``.

    Example:
        >>> import companion as tf
        >>> x = tf.reshape(tf.range(16.0), [1, 4, 4, 1])
        >>> print(tf.nn.max_pool2d(x, ksize=2, strides=2, padding="VALID")[0, :, :, 0])
        companion.Tensor(
        [[ 5.  7.]
         [13. 15.]], shape=(2, 2), dtype=float32)
    """
    return _pool(_max_pool, input, ksize, strides, padding, data_format, 2, "max_pool2d")


def avg_pool2d(input, ksize, strides, padding, data_format="NHWC", name=None):  # noqa: A002
    """The mean over each ``ksize`` window of a batch of images (arguments as `max_pool2d`).

    With ``"SAME"`` padding a window that sticks out of the input averages only the
    input elements it covers, as TensorFlow does (padding is not counted as zeros).

    Example:
        >>> import companion as tf
        >>> x = tf.reshape(tf.range(9.0), [1, 3, 3, 1])
        >>> print(tf.nn.avg_pool2d(x, ksize=2, strides=2, padding="SAME")[0, :, :, 0])
        companion.Tensor(
        [[2.  3.5]
         [6.5 8. ]], shape=(2, 2), dtype=float32)
    """
    x = float_input(input, "avg_pool2d", "input")
    return _pool(_avg_pool, x, ksize, strides, padding, data_format, 2, "avg_pool2d")


def max_pool1d(input, ksize, strides, padding, data_format="NWC", name=None):  # noqa: A002
    """Max pooling over the width of ``[batch, width, channels]`` inputs; see `max_pool2d`."""
    return _pool(_max_pool, input, ksize, strides, padding, data_format, 1, "max_pool1d")


def max_pool3d(input, ksize, strides, padding, data_format="NDHWC", name=None):  # noqa: A002
    """Max pooling over ``[batch, depth, height, width, channels]`` inputs; see `max_pool2d`."""
    return _pool(_max_pool, input, ksize, strides, padding, data_format, 3, "max_pool3d")


def avg_pool1d(input, ksize, strides, padding, data_format="NWC", name=None):  # noqa: A002
    """Average pooling over the width of ``[batch, width, channels]`` inputs; see `avg_pool2d`."""
    x = float_input(input, "avg_pool1d", "input")
    return _pool(_avg_pool, x, ksize, strides, padding, data_format, 1, "avg_pool1d")


def avg_pool3d(input, ksize, strides, padding, data_format="NDHWC", name=None):  # noqa: A002
    """Average pooling over ``[batch, depth, height, width, channels]`` inputs; see `avg_pool2d`."""
    x = float_input(input, "avg_pool3d", "input")
    return _pool(_avg_pool, x, ksize, strides, padding, data_format, 3, "avg_pool3d")


def max_pool(input, ksize, strides, padding, data_format=None, name=None):  # noqa: A002
    """Max pooling over 1, 2 or 3 spatial dimensions, chosen by the rank (3, 4 or 5) of ``input``."""
    x = _any_rank(input, "max_pool")
    return _pool(_max_pool, x, ksize, strides, padding, data_format, x.ndim - 2, "max_pool")


def avg_pool(input, ksize, strides, padding, data_format=None, name=None):  # noqa: A002
    """Average pooling over 1, 2 or 3 spatial dimensions, chosen by the rank (3, 4 or 5) of ``input``."""
    x = float_input(_any_rank(input, "avg_pool"), "avg_pool", "input")
    return _pool(_avg_pool, x, ksize, strides, padding, data_format, x.ndim - 2, "avg_pool")


# -- helpers -----------------------------------------------------------------------------------

def _pool(pool_op, x, ksize, strides, padding, data_format, n_spatial, op_name):
    x = as_input(x)
    if not x.dtype.is_numeric or x.dtype.is_complex:
        raise TypeError(f"{op_name} needs a real numeric tensor. Received dtype {x.dtype.name}: "
                        f"{x!s}. Convert it first with companion.cast.")
    check_rank(x, (n_spatial + 2,), op_name, "input")
    last = channels_last(data_format, n_spatial, op_name)
    window = _full_rank(spatial_tuple(ksize, n_spatial, last, op_name, "ksize"), last)
    steps = _full_rank(spatial_tuple(strides, n_spatial, last, op_name, "strides"), last)
    return pool_op(x, window=window, strides=steps, padding=check_padding(padding, op_name))


def _full_rank(spatial, last):
    return (1,) + spatial + (1,) if last else (1, 1) + spatial


def _any_rank(x, op_name):
    x = as_input(x)
    check_rank(x, (3, 4, 5), op_name, "input")
    return x



def pool(input, window_shape, pooling_type, strides=None, padding="VALID", data_format=None,  # noqa: A002
         dilations=None, name=None):
    """``"MAX"`` or ``"AVG"`` pooling over the spatial dimensions (1 to 3, by ``input``'s rank) with
    windows of ``window_shape``; ``strides`` default to 1. Dilated windows are not supported."""
    if dilations is not None and any(d != 1 for d in spatial_tuple(dilations, len(window_shape), True, "pool",
                                                                   "dilations")):
        raise NotImplementedError("pool: dilated windows (dilations > 1) are not supported by companion. "
                                  f"Received: dilations={dilations!r}")
    kind = str(pooling_type).upper()
    if kind not in ("MAX", "AVG"):
        raise ValueError(f"pool: pooling_type must be 'MAX' or 'AVG'. Received: {pooling_type!r}")
    steps = 1 if strides is None else strides
    chosen = max_pool if kind == "MAX" else avg_pool
    return chosen(input, list(window_shape), steps, padding, data_format)
