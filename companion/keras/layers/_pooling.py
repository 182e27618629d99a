"""Pooling layers: windowed max and average over sequences (1-D), images (2-D) and volumes (3-D),
global max and average over the spatial axes of images and volumes (a sequence's:
`_global_pooling_1d`)."""

from companion._ops._nn_pooling import avg_pool, max_pool
from companion._ops._reduce import reduce_max, reduce_mean
from companion.keras.layers._conv import (
    batch_and_spatial,
    data_format_name,
    int_tuple,
    op_data_format,
    output_length,
    padding_name,
)
from companion.keras.layers._input_spec import InputSpec
from companion.keras.layers._layer import Layer


class _Pooling(Layer):
    """Applies ``_pool_op`` over ``pool_size`` windows moved by ``strides`` (default: the size)."""

    _built_at_init = True  # Keras 3 builds it in __init__: its config has no build_config

    _pool_op = None
    rank = 2

    def __init__(self, pool_size=2, strides=None, padding="valid", data_format=None, **kwargs):
        super().__init__(**kwargs)
        self.pool_size = int_tuple(pool_size, self.rank, "pool_size")
        self.strides = self.pool_size if strides is None else int_tuple(strides, self.rank, "strides")
        self.padding = padding_name(padding)
        self.data_format = data_format_name(data_format)
        self.input_spec = InputSpec(ndim=self.rank + 2)

    def call(self, inputs):
        return self._pool_op(inputs, ksize=self.pool_size, strides=self.strides,
                             padding=self.padding.upper(),
                             data_format=op_data_format(self.data_format, self.rank))

    def compute_output_shape(self, input_shape):
        batch, *spatial = batch_and_spatial(input_shape, self.data_format, self.rank)
        spatial = [output_length(n, k, self.padding, s)
                   for n, k, s in zip(spatial, self.pool_size, self.strides)]
        channels = tuple(input_shape)[1 if self.data_format == "channels_first" else -1]
        if self.data_format == "channels_first":
            return (batch, channels, *spatial)
        return (batch, *spatial, channels)

    def get_config(self):
        return {**super().get_config(), "pool_size": self.pool_size, "padding": self.padding,
                "strides": self.strides, "data_format": self.data_format}


class MaxPooling1D(_Pooling):
    """The maximum over each ``pool_size`` window of the steps of ``(batch, steps, features)``.

    Example:
        >>> import companion as tf
        >>> x = tf.reshape(tf.range(6.0), [1, 6, 1])
        >>> tf.keras.layers.MaxPooling1D(pool_size=3)(x)[0, :, 0].numpy()
        array([2., 5.], dtype=float32)
    """

    _pool_op = staticmethod(max_pool)
    rank = 1


class _AveragePooling(_Pooling):
    """Keras 3's average pooling layers have no default ``pool_size`` (the max pooling ones do)."""

    _pool_op = staticmethod(avg_pool)

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)

        def __init__(self, pool_size, strides=None, padding="valid", data_format=None, **kwargs):
            _Pooling.__init__(self, pool_size, strides, padding, data_format, **kwargs)

        __init__.__qualname__ = f"{cls.__name__}.__init__"  # a missing pool_size's TypeError names the class
        cls.__init__ = __init__


class AveragePooling1D(_AveragePooling):
    """The mean over each ``pool_size`` window of the steps of ``(batch, steps, features)``.

    Example:
        >>> import companion as tf
        >>> x = tf.reshape(tf.range(6.0), [1, 6, 1])
        >>> tf.keras.layers.AveragePooling1D(pool_size=3)(x)[0, :, 0].numpy()
        array([1., 4.], dtype=float32)
    """

    rank = 1


class MaxPooling2D(_Pooling):
    """The maximum over each ``pool_size`` window of ``(batch, rows, cols, channels)`` images.

    ``strides`` defaults to ``pool_size``; ``padding`` is ``"valid"`` or ``"same"``
    (output size ``ceil(in / stride)``, padded positions never win).

    Example:
        >>> import companion as tf
        >>> x = tf.reshape(tf.range(16.0), [1, 4, 4, 1])
        >>> tf.keras.layers.MaxPooling2D()(x)[0, :, :, 0].numpy()
        array([[ 5.,  7.],
               [13., 15.]], dtype=float32)
    """

    _pool_op = staticmethod(max_pool)


class AveragePooling2D(_AveragePooling):
    """The mean over each ``pool_size`` window of ``(batch, rows, cols, channels)`` images.

    ``strides`` defaults to ``pool_size``. With ``padding="same"`` a window that sticks out
    of the image averages only the elements it covers, as Keras and TensorFlow do.

    Example:
        >>> import companion as tf
        >>> x = tf.reshape(tf.range(9.0), [1, 3, 3, 1])
        >>> tf.keras.layers.AveragePooling2D(2, padding="same")(x)[0, :, :, 0].numpy()
        array([[2. , 3.5],
               [6.5, 8. ]], dtype=float32)
    """



class _GlobalPooling2D(Layer):
    """Reduces the ``rank`` spatial axes with ``_reduce_op``, keeping them with size 1 if ``keepdims``."""

    _built_at_init = True  # Keras 3 builds it in __init__: its config has no build_config

    _reduce_op = None
    rank = 2

    def __init__(self, data_format=None, keepdims=False, **kwargs):
        super().__init__(**kwargs)
        self.data_format = data_format_name(data_format)
        self.keepdims = bool(keepdims)
        self.input_spec = InputSpec(ndim=self.rank + 2)

    def _spatial_axes(self):
        first = 1 if self.data_format == "channels_last" else 2
        return list(range(first, first + self.rank))

    def call(self, inputs):
        return self._reduce_op(inputs, axis=self._spatial_axes(), keepdims=self.keepdims)

    def compute_output_shape(self, input_shape):
        dims = tuple(input_shape)
        batch_and_spatial(dims, self.data_format, self.rank)  # checks the rank
        channel_axis = self.rank + 1 if self.data_format == "channels_last" else 1
        if not self.keepdims:
            return (dims[0], dims[channel_axis])
        ones = (1,) * self.rank
        if self.data_format == "channels_last":
            return (dims[0], *ones, dims[-1])
        return (dims[0], dims[1], *ones)

    def get_config(self):
        return {**super().get_config(), "data_format": self.data_format, "keepdims": self.keepdims}


class GlobalAveragePooling2D(_GlobalPooling2D):
    """The mean over the rows and columns of each channel of ``(batch, rows, cols, channels)``.

    Example:
        >>> import companion as tf
        >>> x = tf.reshape(tf.range(8.0), [1, 2, 2, 2])
        >>> tf.keras.layers.GlobalAveragePooling2D()(x).numpy()
        array([[3., 4.]], dtype=float32)
        >>> tf.keras.layers.GlobalAveragePooling2D(keepdims=True)(x).shape
        TensorShape([1, 1, 1, 2])
    """

    _reduce_op = staticmethod(reduce_mean)


class GlobalMaxPooling2D(_GlobalPooling2D):
    """The maximum over the rows and columns of each channel of ``(batch, rows, cols, channels)``.

    Example:
        >>> import companion as tf
        >>> x = tf.reshape(tf.range(8.0), [1, 2, 2, 2])
        >>> tf.keras.layers.GlobalMaxPooling2D()(x).numpy()
        array([[6., 7.]], dtype=float32)
    """

    _reduce_op = staticmethod(reduce_max)


class MaxPooling3D(_Pooling):
    """The maximum over each ``pool_size`` window of ``(batch, depth, rows, cols, channels)`` volumes."""

    _pool_op = staticmethod(max_pool)
    rank = 3


class AveragePooling3D(_AveragePooling):
    """The mean over each ``pool_size`` window of ``(batch, depth, rows, cols, channels)`` volumes."""

    rank = 3


class GlobalAveragePooling3D(_GlobalPooling2D):
    """The mean over the three spatial axes of each channel of a 5-D input."""

    _reduce_op = staticmethod(reduce_mean)
    rank = 3


class GlobalMaxPooling3D(_GlobalPooling2D):
    """The maximum over the three spatial axes of each channel of a 5-D input."""

    _reduce_op = staticmethod(reduce_max)
    rank = 3


MaxPool1D = MaxPooling1D
AvgPool1D = AveragePooling1D
MaxPool2D = MaxPooling2D
AvgPool2D = AveragePooling2D
GlobalAvgPool2D = GlobalAveragePooling2D
GlobalMaxPool2D = GlobalMaxPooling2D
MaxPool3D = MaxPooling3D
AvgPool3D = AveragePooling3D
GlobalAvgPool3D = GlobalAveragePooling3D
GlobalMaxPool3D = GlobalMaxPooling3D
