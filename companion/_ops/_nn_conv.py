"""Convolutions of `companion.nn`: ``conv1d``, ``conv2d``, ``conv3d``, ``convolution``,
``depthwise_conv2d`` (one XLA op; a depthwise convolution is a grouped one, a group per channel)
and the transposed ``conv1d_transpose``/``conv2d_transpose``/``conv3d_transpose``."""

import jax
import jax.numpy as jnp
import numpy as np

from companion._core._convert import as_input
from companion._core._errors import InvalidArgumentError
from companion._core._op import op
from companion._ops._array import reshape
from companion._ops._nn import channels_last, check_rank, float_pair, shape_of, spatial_tuple
from companion._ops._static import static_ints

_SPATIAL = "DHW"


@op("conv", static=("strides", "padding", "dilations", "dimension_numbers", "groups"))
def _conv(x, filters, strides, padding, dilations, dimension_numbers, groups):
    return jax.lax.conv_general_dilated(
        x, filters, window_strides=strides, padding=padding, rhs_dilation=dilations,
        dimension_numbers=dimension_numbers, feature_group_count=groups)


def conv2d(input, filters, strides, padding, data_format="NHWC", dilations=None, name=None):  # noqa: A002
    """2-D convolution (cross-correlation, as in TensorFlow) of a batch of images.

    Args:
        input: a float tensor of shape ``[batch, height, width, channels]`` (``"NHWC"``) or
            ``[batch, channels, height, width]`` (``"NCHW"``).
        filters: a tensor of shape ``[filter_height, filter_width, in_channels, out_channels]``
            (``HWIO``) of the dtype of ``input``. When ``in_channels`` divides the input's
            channels, the convolution is grouped (as in TensorFlow).
        strides: an int, or a list of 1, 2 or 4 ints (batch and channel entries 1).
        padding: ``"SAME"`` (output size ``ceil(in / stride)``, zero padding mostly at the
            end), ``"VALID"`` (no padding), or explicit ``[[0, 0], [top, bottom],
            [left, right], [0, 0]]`` pairs in the order of ``data_format``.
        data_format: ``"NHWC"`` or ``"NCHW"``.
        dilations: like ``strides``; the spacing between filter taps (default 1).

    Returns:
        A tensor of shape ``[batch, out_height, out_width, out_channels]`` (for ``NHWC``).

    Example:
        >>> import companion as tf
        >>> images = tf.ones([1, 3, 3, 1])
        >>> kernel = tf.ones([2, 2, 1, 1])
        >>> print(tf.nn.conv2d(images, kernel, strides=1, padding="VALID")[0, :, :, 0])
        companion.Tensor(
        [[4. 4.]
         [4. 4.]], shape=(2, 2), dtype=float32)
    """
    return _convolve(input, filters, strides, padding, data_format, dilations, 2, "conv2d")


def conv1d(input, filters, stride, padding, data_format="NWC", dilations=None, name=None):  # noqa: A002
    """1-D convolution: ``input`` ``[batch, width, channels]``, ``filters`` ``[width, in, out]``."""
    return _convolve(input, filters, stride, padding, data_format, dilations, 1, "conv1d")


def conv3d(input, filters, strides, padding, data_format="NDHWC", dilations=None, name=None):  # noqa: A002
    """3-D convolution: ``input`` ``[batch, depth, height, width, channels]``, filters ``DHWIO``."""
    return _convolve(input, filters, strides, padding, data_format, dilations, 3, "conv3d")


def convolution(input, filters, strides=None, padding="VALID", data_format=None,  # noqa: A002
                dilations=None, name=None):
    """An N-D convolution (N = 1, 2 or 3, from the rank of ``input``); see `conv2d`."""
    input = as_input(input)
    check_rank(input, (3, 4, 5), "convolution", "input")
    return _convolve(input, filters, 1 if strides is None else strides, padding, data_format,
                     dilations, input.ndim - 2, "convolution")


def depthwise_conv2d(input, filter, strides, padding, data_format=None, dilations=None,  # noqa: A002
                     name=None):
    """Convolves each input channel with its own filters: ``channel_multiplier`` outputs per channel.

    Args:
        input: ``[batch, height, width, in_channels]`` (``"NHWC"``) or ``"NCHW"``.
        filter: ``[filter_height, filter_width, in_channels, channel_multiplier]``.
        strides: 4 ints ``[1, stride, stride, 1]`` (as TensorFlow requires), or 1 or 2 ints.
        padding: ``"SAME"``, ``"VALID"`` or explicit pairs, as in `conv2d`.
        dilations: 2 ints, the spacing between filter taps (TensorFlow's ``rate``).

    Returns:
        ``[batch, out_height, out_width, in_channels * channel_multiplier]``; output channel
        ``c * channel_multiplier + m`` is input channel ``c`` through filter ``m``.

    Example:
        >>> import companion as tf
        >>> print(tf.nn.depthwise_conv2d(tf.ones([1, 3, 3, 2]), tf.ones([2, 2, 2, 1]),
        ...                              strides=[1, 1, 1, 1], padding="VALID").shape)
        (1, 2, 2, 2)
    """
    x, kernel = float_pair(input, filter, "depthwise_conv2d", ("input", "filter"))
    check_rank(x, (4,), "depthwise_conv2d", "input")
    check_rank(kernel, (4,), "depthwise_conv2d", "filter")
    last = channels_last(data_format, 2, "depthwise_conv2d")
    height, width, channels, multiplier = shape_of(kernel)
    if shape_of(x)[-1 if last else 1] != channels:
        raise InvalidArgumentError(
            f"depthwise_conv2d: the input has {shape_of(x)[-1 if last else 1]} channels but the filter "
            f"(shape {shape_of(kernel)}) expects {channels} in its third dimension. They must be equal.")

    grouped = reshape(kernel, (height, width, 1, channels * multiplier))
    layout = "NHWC" if last else "NCHW"
    return _conv(x, grouped,
                 strides=spatial_tuple(strides, 2, last, "depthwise_conv2d", "strides"),
                 padding=_padding(padding, 2, last, "depthwise_conv2d"),
                 dilations=spatial_tuple(1 if dilations is None else dilations, 2, last,
                                         "depthwise_conv2d", "dilations"),
                 dimension_numbers=(layout, "HWIO", layout), groups=channels)


def separable_conv2d(input, depthwise_filter, pointwise_filter, strides, padding, data_format=None,  # noqa: A002
                     dilations=None, name=None):
    """`depthwise_conv2d` (with ``strides`` and ``dilations``), then a 1x1 convolution by
    ``pointwise_filter`` ``[1, 1, in_channels * channel_multiplier, out_channels]``.

    Example:
        >>> import companion as tf
        >>> print(tf.nn.separable_conv2d(tf.ones([1, 4, 4, 2]), tf.ones([3, 3, 2, 1]), tf.ones([1, 1, 2, 5]),
        ...                              strides=[1, 1, 1, 1], padding="VALID").shape)
        (1, 2, 2, 5)
    """
    depthwise = depthwise_conv2d(input, depthwise_filter, strides, padding, data_format=data_format,
                                 dilations=dilations)
    pointwise = as_input(pointwise_filter)
    if tuple(shape_of(pointwise)[:2]) != (1, 1):
        raise InvalidArgumentError(f"separable_conv2d: pointwise_filter must be [1, 1, in, out]. Received "
                                   f"shape {shape_of(pointwise)}.")
    return conv2d(depthwise, pointwise, strides=1, padding="VALID",
                  data_format="NHWC" if channels_last(data_format, 2, "separable_conv2d") else "NCHW")


@op("conv_transpose", static=("output_shape", "strides", "padding", "dilations", "dimension_numbers"))
def _conv_transpose(y, filters, output_shape, strides, padding, dilations, dimension_numbers):
    # TF's conv_transpose is the gradient of the convolution from `output_shape` to y's shape with
    # respect to its input: the pullback of that convolution, exact for every padding and stride
    def forward(x):
        return jax.lax.conv_general_dilated(x, filters, window_strides=strides, padding=padding,
                                            rhs_dilation=dilations, dimension_numbers=dimension_numbers)

    _, pullback = jax.vjp(forward, jnp.zeros(output_shape, y.dtype))
    return pullback(y)[0]


def conv2d_transpose(input, filters, output_shape, strides, padding="SAME", data_format="NHWC",  # noqa: A002
                     dilations=None, name=None):
    """The transpose of `conv2d` (its gradient with respect to its input): often called a
    deconvolution; it maps ``input`` to a tensor of ``output_shape``.

    Args:
        input: ``[batch, height, width, in_channels]`` (``"NHWC"``) or ``"NCHW"``.
        filters: ``[filter_height, filter_width, output_channels, in_channels]``.
        output_shape: the 4 ints of the result's shape; a `conv2d` of that shape with these
            ``filters``, ``strides`` and ``padding`` must give ``input``'s shape.
        strides, padding, dilations: as in `conv2d`.

    Example:
        >>> import companion as tf
        >>> print(tf.nn.conv2d_transpose(tf.ones([1, 2, 2, 1]), tf.ones([2, 2, 1, 1]), [1, 4, 4, 1],
        ...                              strides=2, padding="VALID")[0, :, :, 0])
        companion.Tensor(
        [[1. 1. 1. 1.]
         [1. 1. 1. 1.]
         [1. 1. 1. 1.]
         [1. 1. 1. 1.]], shape=(4, 4), dtype=float32)
    """
    return _transpose_convolve(input, filters, output_shape, strides, padding, data_format, dilations, 2,
                               "conv2d_transpose")


def conv1d_transpose(input, filters, output_shape, strides, padding="SAME", data_format="NWC",  # noqa: A002
                     dilations=None, name=None):
    """The transpose of `conv1d`: ``filters`` ``[width, output_channels, in_channels]``; see
    `conv2d_transpose`."""
    return _transpose_convolve(input, filters, output_shape, strides, padding, data_format, dilations, 1,
                               "conv1d_transpose")


def conv3d_transpose(input, filters, output_shape, strides, padding="SAME", data_format="NDHWC",  # noqa: A002
                     dilations=None, name=None):
    """The transpose of `conv3d`: ``filters`` ``[depth, height, width, output_channels,
    in_channels]``; see `conv2d_transpose`."""
    return _transpose_convolve(input, filters, output_shape, strides, padding, data_format, dilations, 3,
                               "conv3d_transpose")


def _transpose_convolve(y, filters, output_shape, strides, padding, data_format, dilations, n_spatial,
                        op_name):
    y, filters, last, params = _checked(y, filters, strides, padding, data_format, dilations, n_spatial,
                                        op_name)
    shape = tuple(int(d) for d in np.asarray(output_shape).reshape(-1))
    channels = shape_of(y)[-1 if last else 1]
    if len(shape) != n_spatial + 2 or shape_of(filters)[-1] != channels or \
            shape[-1 if last else 1] != shape_of(filters)[-2]:
        raise InvalidArgumentError(
            f"{op_name}: output_shape must list {n_spatial + 2} sizes whose channels equal the filters' "
            f"output_channels (second to last), and the filters' last dimension must equal the input's "
            f"channels. Received output_shape={list(shape)}, filters of shape {shape_of(filters)}, "
            f"input of shape {shape_of(y)}.")
    dtype = y.dtype._np
    specs = jax.ShapeDtypeStruct(shape, dtype), jax.ShapeDtypeStruct(shape_of(filters), dtype)
    forward = jax.eval_shape(lambda x, w: _conv.fn(x, w, groups=1, **params), *specs)
    if tuple(forward.shape) != tuple(shape_of(y)):
        raise InvalidArgumentError(
            f"{op_name}: a convolution of output_shape {list(shape)} with these filters, strides and "
            f"padding gives shape {list(forward.shape)}, not the input's {list(shape_of(y))}. Fix "
            "output_shape (for 'SAME' padding: input size * stride).")
    return _conv_transpose(y, filters, output_shape=shape, **params)


# -- helpers -----------------------------------------------------------------------------------

def _convolve(x, filters, strides, padding, data_format, dilations, n_spatial, op_name):
    x, filters, last, params = _checked(x, filters, strides, padding, data_format, dilations, n_spatial,
                                        op_name)
    return _conv(x, filters, groups=_groups(x, filters, last, op_name), **params)


def _checked(x, filters, strides, padding, data_format, dilations, n_spatial, op_name):
    """The float inputs of an N-D convolution, checked, whether channels come last, and the
    convolution's static parameters (strides, padding, dilations, dimension numbers)."""
    x, filters = float_pair(x, filters, op_name, ("input", "filters"))
    check_rank(x, (n_spatial + 2,), op_name, "input")
    check_rank(filters, (n_spatial + 2,), op_name, "filters")
    last = channels_last(data_format, n_spatial, op_name)
    spatial = _SPATIAL[-n_spatial:]
    layout = f"N{spatial}C" if last else f"NC{spatial}"
    params = dict(strides=spatial_tuple(strides, n_spatial, last, op_name, "strides"),
                  padding=_padding(padding, n_spatial, last, op_name),
                  dilations=spatial_tuple(1 if dilations is None else dilations, n_spatial, last, op_name,
                                          "dilations"),
                  dimension_numbers=(layout, f"{spatial}IO", layout))
    return x, filters, last, params


def _groups(x, filters, last, op_name):
    channels = shape_of(x)[-1 if last else 1]
    in_channels, out_channels = shape_of(filters)[-2:]
    if in_channels == 0 or channels % in_channels:
        raise InvalidArgumentError(
            f"{op_name}: the input has {channels} channels but the filters expect {in_channels} "
            f"(filters shape {shape_of(filters)}). The filters' in_channels (second to last "
            "dimension) must equal the input's channels, or divide them for a grouped convolution.")
    groups = channels // in_channels
    if out_channels % groups:
        raise InvalidArgumentError(
            f"{op_name}: a grouped convolution with {groups} groups needs out_channels divisible by "
            f"{groups}. Received filters of shape {shape_of(filters)}.")
    return groups


def _padding(padding, n_spatial, last, op_name):
    """'SAME'/'VALID', or explicit pairs (batch and channel pairs [0, 0]) as spatial (lo, hi) pairs."""
    if isinstance(padding, str) and padding.upper() in ("SAME", "VALID"):
        return padding.upper()
    pairs = _int_pairs(padding)
    if len(pairs) == n_spatial + 2:
        outer = [pairs[0], pairs[-1]] if last else pairs[:2]
        inner = pairs[1:-1] if last else pairs[2:]
        pairs = inner if outer == [(0, 0), (0, 0)] else []
    if len(pairs) != n_spatial or any(len(p) != 2 or min(p) < 0 for p in pairs):
        raise ValueError(f"{op_name}: padding must be 'SAME', 'VALID' or a list of {n_spatial + 2} "
                         "[before, after] pairs of non-negative ints, [0, 0] for the batch and "
                         f"channel dimensions. Received: padding={padding!r}")
    return tuple(pairs)


def _int_pairs(padding):
    if isinstance(padding, str):
        return []
    try:
        return [tuple(int(v) for v in pair) for pair in padding]
    except (TypeError, ValueError):
        return []


def conv_transpose(input, filters, output_shape, strides, padding="SAME", data_format=None,  # noqa: A002
                   dilations=None, name=None):
    """`conv1d_transpose`, `conv2d_transpose` or `conv3d_transpose`, chosen by ``output_shape``'s
    length (3, 4 or 5)."""
    rank = len(static_ints(output_shape, "conv_transpose: output_shape"))
    if rank not in (3, 4, 5):
        raise ValueError(f"conv_transpose: output_shape must have 3, 4 or 5 entries (1 to 3 spatial "
                         f"dimensions). Received: {output_shape!r}")
    default = {3: "NWC", 4: "NHWC", 5: "NDHWC"}[rank]
    return _transpose_convolve(input, filters, output_shape, strides, padding, data_format or default,
                               dilations, rank - 2, "conv_transpose")


def atrous_conv2d(value, filters, rate, padding, name=None):
    """`conv2d` with holes: stride 1, the filter's taps ``rate`` apart (``dilations=rate``)."""
    return conv2d(value, filters, strides=1, padding=padding, dilations=rate)


def atrous_conv2d_transpose(value, filters, output_shape, rate, padding, name=None):
    """The transpose of `atrous_conv2d` (``conv2d_transpose`` with ``dilations=rate``, stride 1)."""
    return conv2d_transpose(value, filters, output_shape, strides=1, padding=padding, dilations=rate)
