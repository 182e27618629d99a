"""Convolution layers: `Conv1D`, `Conv2D`, `Conv3D`, ``activation(convolution(inputs, kernel) + bias)``."""

import numbers

from companion._ops._array import pad
from companion._ops._nn_conv import convolution
from companion._ops._nn_normalization import bias_add
from companion.keras.layers import _kernel_bias as kernel_bias
from companion.keras.layers._input_spec import InputSpec
from companion.keras.layers._layer import Layer

_FORMATS = ("channels_last", "channels_first")
_SPATIAL = "DHW"


class _Conv(Layer):
    """A ``rank``-D convolution layer (a cross-correlation, as in TensorFlow); see `Conv2D`."""

    rank = 2
    _paddings = ("valid", "same")

    def __init__(self, filters, kernel_size, strides=1, padding="valid", data_format=None,
                 dilation_rate=1, groups=1, activation=None, use_bias=True,
                 kernel_initializer="glorot_uniform", bias_initializer="zeros",
                 kernel_regularizer=None, bias_regularizer=None, activity_regularizer=None,
                 kernel_constraint=None, bias_constraint=None, **kwargs):
        super().__init__(activity_regularizer=activity_regularizer, **kwargs)
        self.filters = positive_int(filters, "filters")
        self.groups = positive_int(groups, "groups")
        if filters % groups:
            raise ValueError("The number of filters must be divisible by the number of groups. "
                             f"Received: filters={filters}, groups={groups}")
        self.kernel_size = int_tuple(kernel_size, self.rank, "kernel_size")
        self.strides = int_tuple(strides, self.rank, "strides")
        self.dilation_rate = int_tuple(dilation_rate, self.rank, "dilation_rate")
        if max(self.strides) > 1 and max(self.dilation_rate) > 1:
            raise ValueError("`strides` > 1 is not supported together with `dilation_rate` > 1 (as "
                             f"in Keras). Received: strides={strides!r}, dilation_rate={dilation_rate!r}")
        self.padding = padding_name(padding, self._paddings)
        self.data_format = data_format_name(data_format)
        kernel_bias.configure(self, activation, use_bias, kernel_initializer, bias_initializer,
                              kernel_regularizer, bias_regularizer, kernel_constraint, bias_constraint)
        self.input_spec = InputSpec(min_ndim=self.rank + 2, max_ndim=self.rank + 2)

    def build(self, input_shape):
        channels = self._channels(input_shape)
        kernel_bias.add_kernel_and_bias(self, self.kernel_size + (channels // self.groups, self.filters),
                                        self.filters)
        self.input_spec = InputSpec(min_ndim=self.rank + 2, max_ndim=self.rank + 2,
                                    axes={self._channel_axis(): channels})

    def call(self, inputs):
        data_format = op_data_format(self.data_format, self.rank)
        padding = self.padding
        if padding == "causal":  # left-pad the steps so output t sees inputs up to t only (Keras)
            left = (self.kernel_size[0] - 1) * self.dilation_rate[0]
            steps = [[0, 0], [left, 0], [0, 0]] if self.data_format == "channels_last" else \
                [[0, 0], [0, 0], [left, 0]]
            inputs, padding = pad(inputs, steps), "valid"
        outputs = convolution(inputs, self.kernel, strides=self.strides, padding=padding.upper(),
                              data_format=data_format, dilations=self.dilation_rate)
        if self.use_bias:
            outputs = bias_add(outputs, self.bias, data_format=data_format)
        return self.activation(outputs)

    def compute_output_shape(self, input_shape):
        batch, *spatial = batch_and_spatial(input_shape, self.data_format, self.rank)
        padding = self.padding
        if padding == "causal" and spatial[0] is not None:  # the padded length, then a valid convolution
            spatial[0] += (self.kernel_size[0] - 1) * self.dilation_rate[0]
        padding = "valid" if padding == "causal" else padding
        spatial = [output_length(n, k, padding, s, d) for n, k, s, d in
                   zip(spatial, self.kernel_size, self.strides, self.dilation_rate)]
        if self.data_format == "channels_first":
            return (batch, self.filters, *spatial)
        return (batch, *spatial, self.filters)

    def get_config(self):
        return {**super().get_config(), "filters": self.filters, "kernel_size": self.kernel_size,
                "strides": self.strides, "padding": self.padding, "data_format": self.data_format,
                "dilation_rate": self.dilation_rate, "groups": self.groups,
                **kernel_bias.config(self)}

    def _channel_axis(self):
        return -1 if self.data_format == "channels_last" else 1

    def _channels(self, input_shape):
        dims = tuple(input_shape)
        channels = dims[self._channel_axis()] if len(dims) == self.rank + 2 else None
        if channels is None:
            raise ValueError(f"{type(self).__name__} layer {self.name!r} needs {self.rank + 2}-D inputs "
                             f"with a known channel dimension. Received: input_shape={input_shape}")
        if channels % self.groups:
            raise ValueError(f"The number of input channels must be divisible by the number of "
                             f"groups. Received: groups={self.groups}, input_shape={input_shape}")
        return channels


class Conv1D(_Conv):
    """A 1-D convolution layer over sequences ``(batch, steps, channels)`` (``"channels_last"``).

    The arguments are `Conv2D`'s with single ints (or 1-tuples); ``padding`` may also be
    ``"causal"``: the steps are padded on the left so that output ``t`` depends on inputs up to
    ``t`` only (for temporal models). The kernel has shape ``(kernel_size, channels // groups,
    filters)``.

    Example:
        >>> import companion as tf
        >>> layer = tf.keras.layers.Conv1D(2, 3, padding="causal", kernel_initializer="ones")
        >>> layer(tf.ones([1, 5, 1]))[0, :, 0].numpy().tolist()
        [1.0, 2.0, 3.0, 3.0, 3.0]
    """

    rank = 1
    _paddings = ("valid", "same", "causal")


class Conv2D(_Conv):
    """A 2-D convolution layer (a cross-correlation, as in TensorFlow) over image batches.

    Inputs are ``(batch, rows, cols, channels)`` (``"channels_last"``) or ``(batch,
    channels, rows, cols)`` (``"channels_first"``). The kernel has shape ``(kernel_rows,
    kernel_cols, channels // groups, filters)``.

    Args:
        filters: the number of output channels, a positive integer divisible by ``groups``.
        kernel_size: an int or a pair of ints, the window's rows and columns.
        strides: an int or a pair of ints, the window's step.
        padding: ``"valid"`` (no padding) or ``"same"`` (output size ``ceil(in / stride)``),
            case-insensitive.
        data_format: ``"channels_last"`` (the default, also for None) or ``"channels_first"``.
        dilation_rate: an int or a pair of ints, the spacing between kernel taps (strides
            must then be 1).
        groups: the number of channel groups convolved separately; divides the channels.
        activation: an activation name or function (None: linear).
        use_bias: whether to add a bias vector.
        kernel_initializer, bias_initializer: initializers (names, instances or callables).
        kernel_regularizer, bias_regularizer: penalties added to `losses`.

    Example:
        >>> import companion as tf
        >>> layer = tf.keras.layers.Conv2D(2, 3, padding="same", kernel_initializer="ones")
        >>> layer(tf.ones([1, 4, 4, 1])).shape
        TensorShape([1, 4, 4, 2])
        >>> layer.kernel.shape, layer.count_params()
        (TensorShape([3, 3, 1, 2]), 20)
    """

    rank = 2


class Conv3D(_Conv):
    """A 3-D convolution layer over volumes ``(batch, depth, rows, cols, channels)``; see `Conv2D`."""

    rank = 3


# -- argument checks shared with the pooling layers ---------------------------------------------

def positive_int(value, what):
    """``value`` if it is a positive int; ValueError naming the argument otherwise."""
    if isinstance(value, bool) or not isinstance(value, numbers.Integral) or value <= 0:
        raise ValueError(f"`{what}` must be a positive integer. Received: {what}={value!r}")
    return int(value)


def int_tuple(value, n, what):
    """An int or ``n`` positive ints as a tuple of ``n`` ints."""
    values = (value,) * n if isinstance(value, numbers.Integral) else value
    try:
        items = tuple(values)
    except TypeError:
        items = ()
    if len(items) != n or not all(isinstance(v, numbers.Integral) and not isinstance(v, bool)
                                  and v > 0 for v in items):
        raise ValueError(f"`{what}` must be a positive integer or a tuple of {n} positive integers. "
                         f"Received: {what}={value!r}")
    return tuple(int(v) for v in items)


def padding_name(padding, allowed=("valid", "same")):
    """One of ``allowed`` (``'valid'``, ``'same'``) in any case; ValueError otherwise."""
    if isinstance(padding, str) and padding.lower() in allowed:
        return padding.lower()
    names = " or ".join(repr(name) for name in allowed)
    raise ValueError(f"`padding` must be {names}. Received: padding={padding!r}")


def data_format_name(data_format):
    """``'channels_last'`` (also for None) or ``'channels_first'``; ValueError otherwise."""
    data_format = "channels_last" if data_format is None else data_format
    if data_format not in _FORMATS:
        raise ValueError("`data_format` must be 'channels_last' or 'channels_first'. Received: "
                         f"data_format={data_format!r}")
    return data_format


def op_data_format(data_format, rank=2):
    """The op-level layout of a Keras ``data_format``: ``'NHWC'``/``'NCHW'`` (``'NWC'``, ``'NDHWC'``, ...)."""
    spatial = "W" if rank == 1 else _SPATIAL[-rank:]
    return f"N{spatial}C" if data_format == "channels_last" else f"NC{spatial}"


def output_length(length, window, padding, stride, dilation=1):
    """The output size along one spatial axis (None when ``length`` is unknown), as Keras."""
    if length is None:
        return None
    span = (window - 1) * dilation + 1
    kept = length if padding == "same" else length - span + 1
    return max(0, (kept + stride - 1) // stride)


def batch_and_spatial(input_shape, data_format, rank=2):
    dims = tuple(input_shape)
    if len(dims) != rank + 2:
        raise ValueError(f"Expected a {rank + 2}-D input shape. Received: input_shape={input_shape}")
    return (dims[0],) + (dims[2:] if data_format == "channels_first" else dims[1:-1])
