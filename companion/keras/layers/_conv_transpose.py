"""Transposed convolution layers (`Conv1DTranspose`, `Conv2DTranspose`, `Conv3DTranspose`):
``activation(conv_transpose(inputs, kernel) + bias)``, upsampling by their strides."""

from companion._ops._array import shape as dynamic_shape
from companion._ops._nn_conv import _transpose_convolve
from companion._ops._nn_normalization import bias_add
from companion.keras.layers import _kernel_bias as kernel_bias
from companion.keras.layers._conv import (
    batch_and_spatial,
    data_format_name,
    int_tuple,
    op_data_format,
    padding_name,
    positive_int,
)
from companion.keras.layers._input_spec import InputSpec
from companion.keras.layers._layer import Layer


def transposed_length(length, kernel, padding, output_padding, stride, dilation):
    """Keras's ``deconv_output_length``: the size a transposed convolution gives one axis."""
    if length is None:
        return None
    kernel = kernel + (kernel - 1) * (dilation - 1)
    if output_padding is None:
        return length * stride + max(kernel - stride, 0) if padding == "valid" else length * stride
    pad = kernel // 2 if padding == "same" else 0
    return (length - 1) * stride + kernel - 2 * pad + output_padding


def _paddings(value, n):
    values = (value,) * n if isinstance(value, int) else tuple(value)
    if len(values) != n or any(not isinstance(v, int) for v in values):
        raise ValueError(f"output_padding must be an int or a tuple of {n} ints. Received: "
                         f"output_padding={value!r}")
    return values


class _ConvTranspose(Layer):
    """A ``rank``-D transposed convolution layer; see `Conv2DTranspose`."""

    rank = 2

    def __init__(self, filters, kernel_size, strides=1, padding="valid", output_padding=None,
                 data_format=None, dilation_rate=1, activation=None, use_bias=True,
                 kernel_initializer="glorot_uniform", bias_initializer="zeros", kernel_regularizer=None,
                 bias_regularizer=None, activity_regularizer=None, kernel_constraint=None,
                 bias_constraint=None, **kwargs):
        super().__init__(activity_regularizer=activity_regularizer, **kwargs)
        self.filters = positive_int(filters, "filters")
        self.kernel_size = int_tuple(kernel_size, self.rank, "kernel_size")
        self.strides = int_tuple(strides, self.rank, "strides")
        self.dilation_rate = int_tuple(dilation_rate, self.rank, "dilation_rate")
        self.output_padding = None if output_padding is None else _paddings(output_padding, self.rank)
        if self.output_padding is not None and any(not 0 <= p < s for p, s in
                                                   zip(self.output_padding, self.strides)):
            raise ValueError(f"{type(self).__name__}: each output_padding must be a non-negative int "
                             f"smaller than its stride. Received: output_padding={output_padding!r}, "
                             f"strides={strides!r}")
        self.padding = padding_name(padding)
        self.data_format = data_format_name(data_format)
        kernel_bias.configure(self, activation, use_bias, kernel_initializer, bias_initializer,
                              kernel_regularizer, bias_regularizer, kernel_constraint, bias_constraint)
        self.input_spec = InputSpec(min_ndim=self.rank + 2, max_ndim=self.rank + 2)

    def _channel_axis(self):
        return -1 if self.data_format == "channels_last" else 1

    def build(self, input_shape):
        channels = tuple(input_shape)[self._channel_axis()]
        if channels is None:
            raise ValueError(f"{type(self).__name__} layer {self.name!r} needs a known channel dimension. "
                             f"Received: input_shape={input_shape}")
        # (kernel..., filters, input channels): the transpose of a convolution from filters to channels
        kernel_bias.add_kernel_and_bias(self, self.kernel_size + (self.filters, channels), self.filters)
        self.input_spec = InputSpec(min_ndim=self.rank + 2, max_ndim=self.rank + 2,
                                    axes={self._channel_axis(): channels})

    def call(self, inputs):
        data_format = op_data_format(self.data_format, self.rank)
        static = self.compute_output_shape(tuple(inputs.shape))
        batch = static[0] if static[0] is not None else dynamic_shape(inputs)[0]
        outputs = _transpose_convolve(inputs, self.kernel, (int(batch),) + tuple(static[1:]), self.strides,
                                      self.padding.upper(), data_format, self.dilation_rate, self.rank,
                                      type(self).__name__)
        if self.use_bias:
            outputs = bias_add(outputs, self.bias, data_format=data_format)
        return self.activation(outputs)

    def compute_output_shape(self, input_shape):
        batch, *spatial = batch_and_spatial(input_shape, self.data_format, self.rank)
        paddings = self.output_padding or (None,) * self.rank
        spatial = [transposed_length(n, k, self.padding, p, s, d) for n, k, p, s, d in
                   zip(spatial, self.kernel_size, paddings, self.strides, self.dilation_rate)]
        if self.data_format == "channels_first":
            return (batch, self.filters, *spatial)
        return (batch, *spatial, self.filters)

    def get_config(self):
        return {**super().get_config(), "filters": self.filters, "kernel_size": self.kernel_size,
                "strides": self.strides, "padding": self.padding, "output_padding": self.output_padding,
                "data_format": self.data_format, "dilation_rate": self.dilation_rate,
                **kernel_bias.config(self)}


class Conv1DTranspose(_ConvTranspose):
    """A 1-D transposed convolution over sequences ``(batch, steps, channels)``; see `Conv2DTranspose`."""

    rank = 1


class Conv2DTranspose(_ConvTranspose):
    """A 2-D transposed convolution ("deconvolution") layer, as in decoders and generators.

    Each output size is ``input * stride + max(kernel - stride, 0)`` with ``padding="valid"`` and
    ``input * stride`` with ``"same"`` (``output_padding`` fixes it to ``(input - 1) * stride + kernel
    - 2 * pad + output_padding``). The kernel has shape ``(kernel_rows, kernel_cols, filters,
    input_channels)``.

    Example:
        >>> import companion as tf
        >>> tf.keras.layers.Conv2DTranspose(4, 3, strides=2)(tf.ones([1, 5, 5, 2])).shape
        TensorShape([1, 11, 11, 4])
    """

    rank = 2


class Conv3DTranspose(_ConvTranspose):
    """A 3-D transposed convolution over volumes; see `Conv2DTranspose`."""

    rank = 3
