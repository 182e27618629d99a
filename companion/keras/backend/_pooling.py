"""Backend pooling: the max or mean of each window of 2-D images (`pool2d`) or 3-D volumes (`pool3d`)."""

from companion import nn as _nn
from companion.keras.backend._config import checked_data_format
from companion.keras.backend._conv import tf_format, tf_padding


def _pool(x, pool_size, strides, padding, data_format, pool_mode, spatial_dims):
    data_format = checked_data_format(data_format)
    for name, value in (("pool_size", pool_size), ("strides", strides)):
        if len(value) != spatial_dims:
            raise ValueError(f"`{name}` must be a tuple of {spatial_dims} integers. Received: {name}={value}")
    tf_data_format = tf_format(data_format, spatial_dims)
    padding = tf_padding(padding)
    if tf_data_format.endswith("C"):
        strides = (1,) + tuple(strides) + (1,)
        pool_size = (1,) + tuple(pool_size) + (1,)
    else:
        strides = (1, 1) + tuple(strides)
        pool_size = (1, 1) + tuple(pool_size)
    ops = {2: (_nn.max_pool, _nn.avg_pool), 3: (_nn.max_pool3d, _nn.avg_pool3d)}[spatial_dims]
    if pool_mode == "max":
        return ops[0](x, pool_size, strides, padding=padding, data_format=tf_data_format)
    if pool_mode == "avg":
        return ops[1](x, pool_size, strides, padding=padding, data_format=tf_data_format)
    raise ValueError(f"Invalid pooling mode: {pool_mode!r}. Expected 'max' or 'avg'. Received: "
                     f"pool_mode={pool_mode!r}")


def pool2d(x, pool_size, strides=(1, 1), padding="valid", data_format=None, pool_mode="max"):
    """The max (``pool_mode='max'``) or mean (``'avg'``) of each ``pool_size`` window of images ``x``.

    Raises:
        ValueError: ``pool_size`` or ``strides`` is not 2 integers, or an unknown ``padding``,
            ``data_format`` or ``pool_mode``.

    Example:
        >>> import companion as tf
        >>> x = tf.reshape(tf.range(16.0), [1, 4, 4, 1])
        >>> tf.keras.backend.pool2d(x, (2, 2), strides=(2, 2)).numpy()[0, :, :, 0]
        array([[ 5.,  7.],
               [13., 15.]], dtype=float32)
        >>> tf.keras.backend.pool2d(x, (2, 2), strides=(2, 2), pool_mode="avg").numpy()[0, :, :, 0]
        array([[ 2.5,  4.5],
               [10.5, 12.5]], dtype=float32)
    """
    return _pool(x, pool_size, strides, padding, data_format, pool_mode, 2)


def pool3d(x, pool_size, strides=(1, 1, 1), padding="valid", data_format=None, pool_mode="max"):
    """The max (``pool_mode='max'``) or mean (``'avg'``) of each ``pool_size`` window of volumes ``x``.

    Raises:
        ValueError: ``pool_size`` or ``strides`` is not 3 integers, or an unknown ``padding``,
            ``data_format`` or ``pool_mode``.

    Example:
        >>> import companion as tf
        >>> x = tf.reshape(tf.range(8.0), [1, 2, 2, 2, 1])
        >>> tf.keras.backend.pool3d(x, (2, 2, 2), pool_mode="avg").numpy().ravel()
        array([3.5], dtype=float32)
    """
    return _pool(x, pool_size, strides, padding, data_format, pool_mode, 3)
