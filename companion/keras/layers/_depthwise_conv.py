"""`DepthwiseConv1D/2D` (each input channel through its own ``depth_multiplier`` filters) and
`SeparableConv1D/2D` (a depthwise convolution, then a 1x1 pointwise one), as Keras 3 builds them."""

from companion._ops._array import reshape
from companion._ops._nn_conv import convolution
from companion._ops._nn_normalization import bias_add
from companion.keras import activations, constraints, initializers, regularizers
from companion.keras.layers._conv import (
    batch_and_spatial,
    data_format_name,
    int_tuple,
    op_data_format,
    output_length,
    padding_name,
    positive_int,
)
from companion.keras.layers._input_spec import InputSpec
from companion.keras.layers._layer import Layer


class _DepthwiseBase(Layer):
    rank = 2

    def __init__(self, kernel_size, strides, padding, data_format, dilation_rate, depth_multiplier,
                 activation, use_bias, bias_initializer, bias_regularizer, activity_regularizer,
                 bias_constraint, **kwargs):
        super().__init__(activity_regularizer=regularizers.get(activity_regularizer), **kwargs)
        self.kernel_size = int_tuple(kernel_size, self.rank, "kernel_size")
        self.strides = int_tuple(strides, self.rank, "strides")
        self.dilation_rate = int_tuple(dilation_rate, self.rank, "dilation_rate")
        self.padding = padding_name(padding)
        self.data_format = data_format_name(data_format)
        self.depth_multiplier = positive_int(depth_multiplier, "depth_multiplier")
        self.activation = activations.get(activation)
        self.use_bias = bool(use_bias)
        self.bias_initializer = initializers.get(bias_initializer)
        self.bias_regularizer = regularizers.get(bias_regularizer)
        self.bias_constraint = constraints.get(bias_constraint)
        self.input_spec = InputSpec(min_ndim=self.rank + 2, max_ndim=self.rank + 2)

    def _channels(self, input_shape):
        dims = tuple(input_shape)
        axis = -1 if self.data_format == "channels_last" else 1
        channels = dims[axis] if len(dims) == self.rank + 2 else None
        if channels is None:
            raise ValueError(f"{type(self).__name__} layer {self.name!r} needs {self.rank + 2}-D inputs with "
                             f"a known channel dimension. Received: input_shape={input_shape}")
        return channels

    def _depthwise(self, inputs, kernel):
        """Each input channel convolved with its own filters (a convolution grouped by channel)."""
        grouped = reshape(kernel, (*self.kernel_size, 1, -1))
        return convolution(inputs, grouped, strides=self.strides, padding=self.padding.upper(),
                           data_format=op_data_format(self.data_format, self.rank),
                           dilations=self.dilation_rate)

    def _finish(self, outputs):
        if self.use_bias:
            outputs = bias_add(outputs, self.bias, data_format=op_data_format(self.data_format, self.rank))
        return self.activation(outputs)

    def _output_shape(self, input_shape, channels):
        batch, *spatial = batch_and_spatial(input_shape, self.data_format, self.rank)
        spatial = [output_length(n, k, self.padding, s, d) for n, k, s, d in
                   zip(spatial, self.kernel_size, self.strides, self.dilation_rate)]
        if self.data_format == "channels_last":
            return (batch, *spatial, channels)
        return (batch, channels, *spatial)

    def _base_config(self):
        return {"kernel_size": self.kernel_size, "strides": self.strides, "padding": self.padding,
                "depth_multiplier": self.depth_multiplier, "data_format": self.data_format,
                "dilation_rate": self.dilation_rate, "activation": activations.serialize(self.activation),
                "use_bias": self.use_bias, "bias_initializer": initializers.serialize(self.bias_initializer),
                "bias_regularizer": regularizers.serialize(self.bias_regularizer),
                "activity_regularizer": regularizers.serialize(self.activity_regularizer),
                "bias_constraint": constraints.serialize(self.bias_constraint)}


class DepthwiseConv2D(_DepthwiseBase):
    """Convolves each input channel with its own ``depth_multiplier`` filters: ``in_channels *
    depth_multiplier`` output channels (the kernel ``(kh, kw, in_channels, depth_multiplier)``).

    Example:
        >>> import companion as tf
        >>> layer = tf.keras.layers.DepthwiseConv2D(3, depth_multiplier=2)
        >>> layer(tf.ones([1, 5, 5, 3])).shape, layer.kernel.shape
        (TensorShape([1, 3, 3, 6]), TensorShape([3, 3, 3, 2]))
    """

    def __init__(self, kernel_size, strides=1, padding="valid", depth_multiplier=1, data_format=None,
                 dilation_rate=1, activation=None, use_bias=True, depthwise_initializer="glorot_uniform",
                 bias_initializer="zeros", depthwise_regularizer=None, bias_regularizer=None,
                 activity_regularizer=None, depthwise_constraint=None, bias_constraint=None, **kwargs):
        super().__init__(kernel_size, strides, padding, data_format, dilation_rate, depth_multiplier,
                         activation, use_bias, bias_initializer, bias_regularizer, activity_regularizer,
                         bias_constraint, **kwargs)
        self.depthwise_initializer = initializers.get(depthwise_initializer)
        self.depthwise_regularizer = regularizers.get(depthwise_regularizer)
        self.depthwise_constraint = constraints.get(depthwise_constraint)

    def build(self, input_shape):
        channels = self._channels(input_shape)
        self.kernel = self.add_weight(name="kernel",
                                      shape=(*self.kernel_size, channels, self.depth_multiplier),
                                      initializer=self.depthwise_initializer,
                                      regularizer=self.depthwise_regularizer,
                                      constraint=self.depthwise_constraint)
        self.bias = self.add_weight(name="bias", shape=(channels * self.depth_multiplier,),
                                    initializer=self.bias_initializer, regularizer=self.bias_regularizer,
                                    constraint=self.bias_constraint) if self.use_bias else None

    def call(self, inputs):
        return self._finish(self._depthwise(inputs, self.kernel))

    def compute_output_shape(self, input_shape):
        return self._output_shape(input_shape, self._channels(input_shape) * self.depth_multiplier)

    def get_config(self):
        return {**super().get_config(), **self._base_config(),
                "depthwise_initializer": initializers.serialize(self.depthwise_initializer),
                "depthwise_regularizer": regularizers.serialize(self.depthwise_regularizer),
                "depthwise_constraint": constraints.serialize(self.depthwise_constraint)}


class DepthwiseConv1D(DepthwiseConv2D):
    """`DepthwiseConv2D` over sequences ``(batch, steps, channels)``."""

    rank = 1


class SeparableConv2D(_DepthwiseBase):
    """A depthwise convolution (``depth_multiplier`` filters per input channel) followed by a 1x1
    convolution to ``filters`` channels: far fewer weights than a full `Conv2D`.

    Example:
        >>> import companion as tf
        >>> layer = tf.keras.layers.SeparableConv2D(4, 3)
        >>> layer(tf.ones([1, 5, 5, 3])).shape, layer.pointwise_kernel.shape
        (TensorShape([1, 3, 3, 4]), TensorShape([1, 1, 3, 4]))
    """

    def __init__(self, filters, kernel_size, strides=1, padding="valid", data_format=None, dilation_rate=1,
                 depth_multiplier=1, activation=None, use_bias=True, depthwise_initializer="glorot_uniform",
                 pointwise_initializer="glorot_uniform", bias_initializer="zeros", depthwise_regularizer=None,
                 pointwise_regularizer=None, bias_regularizer=None, activity_regularizer=None,
                 depthwise_constraint=None, pointwise_constraint=None, bias_constraint=None, **kwargs):
        super().__init__(kernel_size, strides, padding, data_format, dilation_rate, depth_multiplier,
                         activation, use_bias, bias_initializer, bias_regularizer, activity_regularizer,
                         bias_constraint, **kwargs)
        self.filters = positive_int(filters, "filters")
        self.depthwise_initializer = initializers.get(depthwise_initializer)
        self.pointwise_initializer = initializers.get(pointwise_initializer)
        self.depthwise_regularizer = regularizers.get(depthwise_regularizer)
        self.pointwise_regularizer = regularizers.get(pointwise_regularizer)
        self.depthwise_constraint = constraints.get(depthwise_constraint)
        self.pointwise_constraint = constraints.get(pointwise_constraint)

    def build(self, input_shape):
        channels = self._channels(input_shape)
        self.depthwise_kernel = self.add_weight(
            name="depthwise_kernel", shape=(*self.kernel_size, channels, self.depth_multiplier),
            initializer=self.depthwise_initializer, regularizer=self.depthwise_regularizer,
            constraint=self.depthwise_constraint)
        self.pointwise_kernel = self.add_weight(
            name="pointwise_kernel",
            shape=(1,) * self.rank + (channels * self.depth_multiplier, self.filters),
            initializer=self.pointwise_initializer, regularizer=self.pointwise_regularizer,
            constraint=self.pointwise_constraint)
        self.bias = self.add_weight(name="bias", shape=(self.filters,), initializer=self.bias_initializer,
                                    regularizer=self.bias_regularizer,
                                    constraint=self.bias_constraint) if self.use_bias else None

    def call(self, inputs):
        depthwise = self._depthwise(inputs, self.depthwise_kernel)
        pointwise = convolution(depthwise, self.pointwise_kernel, strides=1, padding="VALID",
                                data_format=op_data_format(self.data_format, self.rank))
        return self._finish(pointwise)

    def compute_output_shape(self, input_shape):
        return self._output_shape(input_shape, self.filters)

    def get_config(self):
        return {**super().get_config(), "filters": self.filters, **self._base_config(),
                "depthwise_initializer": initializers.serialize(self.depthwise_initializer),
                "pointwise_initializer": initializers.serialize(self.pointwise_initializer),
                "depthwise_regularizer": regularizers.serialize(self.depthwise_regularizer),
                "pointwise_regularizer": regularizers.serialize(self.pointwise_regularizer),
                "depthwise_constraint": constraints.serialize(self.depthwise_constraint),
                "pointwise_constraint": constraints.serialize(self.pointwise_constraint)}


class SeparableConv1D(SeparableConv2D):
    """`SeparableConv2D` over sequences ``(batch, steps, channels)``."""

    rank = 1


SeparableConvolution1D = SeparableConv1D
SeparableConvolution2D = SeparableConv2D
