"""Backend convolutions: conv1d/2d/3d, conv2d_transpose, depthwise and separable conv2d.

Each takes Keras's arguments (``padding='valid'|'same'`` (conv1d also ``'causal'``),
``data_format='channels_last'|'channels_first'``, None meaning `image_data_format`) and
calls the matching ``companion.nn`` op with TensorFlow's layout names.
"""

from companion import convert_to_tensor, shape, stack, transpose
from companion import nn as _nn
from companion.keras.backend._config import checked_data_format
from companion.keras.backend._padding import temporal_padding

_TF_FORMATS = {1: ("NWC", "NCW"), 2: ("NHWC", "NCHW"), 3: ("NDHWC", "NCDHW")}


def tf_padding(padding):
    """Keras's ``'same'``/``'valid'`` as TensorFlow's ``'SAME'``/``'VALID'``; ValueError otherwise."""
    if padding == "same":
        return "SAME"
    if padding == "valid":
        return "VALID"
    raise ValueError(f"Invalid padding: {padding!r}. Expected 'same' or 'valid'. "
                     f"Received: padding={padding!r}")


def tf_format(data_format, spatial_dims):
    """TensorFlow's layout name (``'NHWC'``, ``'NCHW'``, ...) for a Keras ``data_format``."""
    last, first = _TF_FORMATS[spatial_dims]
    return first if data_format == "channels_first" else last


def conv1d(x, kernel, strides=1, padding="valid", data_format=None, dilation_rate=1):
    """1-D convolution of ``x`` ``(batch, steps, channels)`` with ``kernel`` ``(width, in, out)``.

    ``padding='causal'`` pads ``dilation_rate * (width - 1)`` steps on the left, so output
    step ``t`` sees only inputs up to ``t``.

    Raises:
        ValueError: an unknown ``padding`` or ``data_format``.

    Example:
        >>> import companion as tf
        >>> x = tf.reshape(tf.range(5.0), [1, 5, 1])
        >>> tf.keras.backend.conv1d(x, tf.ones([2, 1, 1])).numpy()[0, :, 0]
        array([1., 3., 5., 7.], dtype=float32)
        >>> tf.keras.backend.conv1d(x, tf.ones([2, 1, 1]), padding="causal").numpy()[0, :, 0]
        array([0., 1., 3., 5., 7.], dtype=float32)
    """
    data_format = checked_data_format(data_format)
    kernel = convert_to_tensor(kernel)
    if padding == "causal":
        left_pad = dilation_rate * (kernel.shape.as_list()[0] - 1)
        x = temporal_padding(x, (left_pad, 0))
        padding = "valid"
    return _nn.convolution(x, kernel, strides=strides, padding=tf_padding(padding),
                           data_format=tf_format(data_format, 1), dilations=dilation_rate)


def conv2d(x, kernel, strides=(1, 1), padding="valid", data_format=None, dilation_rate=(1, 1)):
    """2-D convolution of images ``x`` with ``kernel`` ``(rows, cols, in, out)``.

    Raises:
        ValueError: an unknown ``padding`` or ``data_format``.

    Example:
        >>> import companion as tf
        >>> out = tf.keras.backend.conv2d(tf.ones([1, 4, 4, 1]), tf.ones([3, 3, 1, 2]), padding="same")
        >>> out.shape, float(out[0, 1, 1, 0]), float(out[0, 0, 0, 0])
        (TensorShape([1, 4, 4, 2]), 9.0, 4.0)
    """
    data_format = checked_data_format(data_format)
    return _nn.convolution(x, kernel, strides=strides, padding=tf_padding(padding),
                           data_format=tf_format(data_format, 2), dilations=dilation_rate)


def conv3d(x, kernel, strides=(1, 1, 1), padding="valid", data_format=None, dilation_rate=(1, 1, 1)):
    """3-D convolution of volumes ``x`` with ``kernel`` ``(depth, rows, cols, in, out)``.

    Raises:
        ValueError: an unknown ``padding`` or ``data_format``.

    Example:
        >>> import companion as tf
        >>> tf.keras.backend.conv3d(tf.ones([1, 4, 4, 4, 1]), tf.ones([2, 2, 2, 1, 3])).shape
        TensorShape([1, 3, 3, 3, 3])
    """
    data_format = checked_data_format(data_format)
    return _nn.convolution(x, kernel, strides=strides, padding=tf_padding(padding),
                           data_format=tf_format(data_format, 3), dilations=dilation_rate)


def conv2d_transpose(x, kernel, output_shape, strides=(1, 1), padding="valid", data_format=None,
                     dilation_rate=(1, 1)):
    """The transpose (gradient) of `conv2d`: ``kernel`` is ``(rows, cols, out, in)``.

    ``output_shape`` is the full output shape (its batch entry may be None).

    Raises:
        ValueError: an unknown ``padding`` or ``data_format``, or unequal dilation rates.

    Example:
        >>> import companion as tf
        >>> out = tf.keras.backend.conv2d_transpose(tf.ones([1, 2, 2, 1]), tf.ones([2, 2, 3, 1]),
        ...                                         (None, 4, 4, 3), strides=(2, 2))
        >>> out.shape
        TensorShape([1, 4, 4, 3])
    """
    data_format = checked_data_format(data_format)
    x = convert_to_tensor(x)
    dilation_rate = tuple(dilation_rate)
    # TF's atrous transpose convolution is NHWC only: channels-first input is transposed for it
    force_transpose = data_format == "channels_first" and dilation_rate != (1, 1)
    tf_data_format = tf_format(data_format, 2)
    if force_transpose:
        x = transpose(x, (0, 2, 3, 1))
        tf_data_format = "NHWC"
        output_shape = (output_shape[0], output_shape[2], output_shape[3], output_shape[1])
    output_shape = tuple(output_shape)
    if output_shape[0] is None:
        output_shape = (shape(x)[0],) + output_shape[1:]
    if all(isinstance(d, int) for d in output_shape):
        output_shape = list(output_shape)
    else:
        output_shape = stack(list(output_shape))
    padding = tf_padding(padding)
    strides = tuple(strides)
    strides = (1,) + strides + (1,) if tf_data_format == "NHWC" else (1, 1) + strides
    if dilation_rate == (1, 1):
        x = _nn.conv2d_transpose(x, kernel, output_shape, strides, padding=padding,
                                 data_format=tf_data_format)
    else:
        if dilation_rate[0] != dilation_rate[1]:
            raise ValueError("Expected the 2 dimensions of the `dilation_rate` argument to be equal to each "
                             f"other. Received: dilation_rate={dilation_rate}")
        x = _nn.atrous_conv2d_transpose(x, kernel, output_shape, rate=dilation_rate[0], padding=padding)
    if force_transpose:
        x = transpose(x, (0, 3, 1, 2))
    return x


def depthwise_conv2d(x, depthwise_kernel, strides=(1, 1), padding="valid", data_format=None,
                     dilation_rate=(1, 1)):
    """Each input channel convolved with its own filters: ``depthwise_kernel`` is ``(rows, cols, in, mult)``.

    Raises:
        ValueError: an unknown ``padding`` or ``data_format``.

    Example:
        >>> import companion as tf
        >>> tf.keras.backend.depthwise_conv2d(tf.ones([1, 3, 3, 2]), tf.ones([2, 2, 2, 3])).shape
        TensorShape([1, 2, 2, 6])
    """
    data_format = checked_data_format(data_format)
    tf_data_format = tf_format(data_format, 2)
    strides = tuple(strides)
    strides = (1,) + strides + (1,) if tf_data_format == "NHWC" else (1, 1) + strides
    return _nn.depthwise_conv2d(x, depthwise_kernel, strides=strides, padding=tf_padding(padding),
                                dilations=dilation_rate, data_format=tf_data_format)


def separable_conv2d(x, depthwise_kernel, pointwise_kernel, strides=(1, 1), padding="valid", data_format=None,
                     dilation_rate=(1, 1)):
    """A depthwise convolution followed by a 1x1 ``pointwise_kernel`` ``(1, 1, in * mult, out)``.

    Raises:
        ValueError: an unknown ``padding`` or ``data_format``, or ``strides`` not 2 integers.

    Example:
        >>> import companion as tf
        >>> tf.keras.backend.separable_conv2d(tf.ones([1, 3, 3, 2]), tf.ones([2, 2, 2, 1]),
        ...                                   tf.ones([1, 1, 2, 4])).shape
        TensorShape([1, 2, 2, 4])
    """
    data_format = checked_data_format(data_format)
    if len(strides) != 2:
        raise ValueError(f"`strides` must be a tuple of 2 integers. Received: strides={strides}")
    tf_data_format = tf_format(data_format, 2)
    strides = tuple(strides)
    strides = (1,) + strides + (1,) if tf_data_format == "NHWC" else (1, 1) + strides
    return _nn.separable_conv2d(x, depthwise_kernel, pointwise_kernel, strides=strides,
                                padding=tf_padding(padding), dilations=dilation_rate,
                                data_format=tf_data_format)
