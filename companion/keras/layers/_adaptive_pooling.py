"""Adaptive pooling layers (Keras 3): max or mean over windows sized so the output has ``output_size``.

Along a spatial axis of length ``n`` pooled to ``m`` outputs, output ``i`` covers the inputs
``floor(i * n / m)`` to ``ceil((i + 1) * n / m)`` (excluded), as PyTorch's adaptive pooling.
Those windows have one of two sizes, ``ceil(n / m)`` and one more; like Keras's TensorFlow
backend, each axis is pooled with both sizes (stride 1) and the outputs gathered, axis by axis,
so averages round as Keras's do.
"""

import math

import numpy as np

from companion._ops._array import concat, transpose
from companion._ops._nn_pooling import avg_pool, max_pool
from companion._ops._select import gather
from companion.keras.layers._layer import Layer


def _window_gather(n, m):
    """Window sizes ``(small, big)`` and, per output, its index into the concatenated pools."""
    small = math.ceil(n / m)
    starts = [min((i * n) // m, n - 1) for i in range(m)]
    ends = [min(-((-(i + 1) * n) // m), n) for i in range(m)]
    small_count = max(1, n - small + 1)
    return small, small + 1, [s + small_count if e - s == small + 1 else s for s, e in zip(starts, ends)]


def adaptive_pool(inputs, output_size, data_format, pool_op):
    """Pools ``inputs`` (``channels_last`` or ``channels_first``) to the spatial ``output_size``."""
    rank = len(output_size)
    if data_format == "channels_first":
        inputs = transpose(inputs, [0, *range(2, rank + 2), 1])
    spatial = tuple(inputs.shape)[1:-1]
    if any(n is None for n in spatial):
        raise ValueError("Adaptive pooling needs statically known spatial dimensions (as in Keras). "
                         f"Received: input shape {tuple(inputs.shape)}")
    x = inputs
    for axis, (n, m) in enumerate(zip(spatial, output_size)):
        small, big, indices = _window_gather(n, m)
        pools = []
        for window in (small, big):
            if window <= n:  # a window longer than the axis pools nothing (and is never gathered)
                ksize = [1] * rank
                ksize[axis] = window
                pools.append(pool_op(x, ksize=ksize, strides=[1] * rank, padding="VALID",
                                     data_format=None))
        combined = pools[0] if len(pools) == 1 else concat(pools, axis=axis + 1)
        x = gather(combined, np.asarray(indices, np.int32), axis=axis + 1)
    if data_format == "channels_first":
        x = transpose(x, [0, rank + 1, *range(1, rank + 1)])
    return x


class _AdaptivePooling(Layer):
    """Pools the ``rank`` spatial axes to ``output_size`` with ``_pool_op``; see the module docstring."""

    rank = 2
    _pool_op = None
    _shape_words = {1: "tuple of 1 integer", 2: "(height, width) tuple", 3: "(depth, height, width) tuple"}

    def __init__(self, output_size, data_format=None, **kwargs):
        self.output_size = self._output_size(output_size)
        super().__init__(**kwargs)
        data_format = data_format or "channels_last"
        if data_format not in ("channels_first", "channels_last"):
            raise ValueError(f"Invalid data_format: {data_format}. Expected 'channels_first' or "
                             f"'channels_last'.")
        self.data_format = data_format

    def _output_size(self, output_size):
        rank = self.rank
        if isinstance(output_size, int) and not isinstance(output_size, bool):
            sizes = (output_size,) * rank
        elif isinstance(output_size, (tuple, list)) and (rank == 1 or len(output_size) == rank):
            if len(output_size) != rank:
                raise ValueError(f"For 1D input, `output_size` tuple must have length 1. "
                                 f"Received: {output_size}")
            sizes = tuple(output_size)
        else:
            raise TypeError(f"`output_size` must be an integer or {self._shape_words[rank]}. "
                            f"Received: {output_size} of type {type(output_size)}")
        if not all(isinstance(s, int) and not isinstance(s, bool) and s > 0 for s in sizes):
            raise ValueError(f"`output_size` must hold positive integers. Received: {output_size}")
        return sizes

    def call(self, inputs):
        if len(inputs.shape) != self.rank + 2:
            raise ValueError(f"{type(self).__name__} expects a {self.rank + 2}-D input (batch, spatial "
                             f"axes, channels). Received: input shape {tuple(inputs.shape)}")
        return adaptive_pool(inputs, self.output_size, self.data_format, type(self)._pool_op)

    def compute_output_shape(self, input_shape):
        dims = tuple(input_shape)
        if self.data_format == "channels_last":
            return (dims[0], *self.output_size, dims[-1])
        return (dims[0], dims[1], *self.output_size)

    def get_config(self):
        return {**super().get_config(), "output_size": self.output_size, "data_format": self.data_format}


class AdaptiveAveragePooling1D(_AdaptivePooling):
    """Averages the steps of ``(batch, steps, features)`` into ``output_size`` adaptive windows.

    Example:
        >>> import companion as tf
        >>> x = tf.reshape(tf.range(5.0), [1, 5, 1])
        >>> tf.keras.layers.AdaptiveAveragePooling1D(2)(x)[0, :, 0].numpy()
        array([1., 3.], dtype=float32)
    """

    rank = 1
    _pool_op = staticmethod(avg_pool)


class AdaptiveMaxPooling1D(_AdaptivePooling):
    """The maximum of each of ``output_size`` adaptive windows over the steps of ``(batch, steps, features)``.

    Example:
        >>> import companion as tf
        >>> x = tf.reshape(tf.range(5.0), [1, 5, 1])
        >>> tf.keras.layers.AdaptiveMaxPooling1D(2)(x)[0, :, 0].numpy()
        array([2., 4.], dtype=float32)
    """

    rank = 1
    _pool_op = staticmethod(max_pool)


class AdaptiveAveragePooling2D(_AdaptivePooling):
    """Averages ``(batch, rows, cols, channels)`` images into ``output_size`` (an int or a pair) cells.

    Example:
        >>> import companion as tf
        >>> x = tf.reshape(tf.range(16.0), [1, 4, 4, 1])
        >>> tf.keras.layers.AdaptiveAveragePooling2D(2)(x)[0, :, :, 0].numpy()
        array([[ 2.5,  4.5],
               [10.5, 12.5]], dtype=float32)
    """

    _pool_op = staticmethod(avg_pool)


class AdaptiveMaxPooling2D(_AdaptivePooling):
    """The maximum of ``(batch, rows, cols, channels)`` images over ``output_size`` adaptive cells.

    Example:
        >>> import companion as tf
        >>> x = tf.reshape(tf.range(16.0), [1, 4, 4, 1])
        >>> tf.keras.layers.AdaptiveMaxPooling2D(2)(x)[0, :, :, 0].numpy()
        array([[ 5.,  7.],
               [13., 15.]], dtype=float32)
    """

    _pool_op = staticmethod(max_pool)


class AdaptiveAveragePooling3D(_AdaptivePooling):
    """Averages ``(batch, depth, rows, cols, channels)`` volumes into ``output_size`` adaptive cells.

    Example:
        >>> import companion as tf
        >>> x = tf.reshape(tf.range(8.0), [1, 2, 2, 2, 1])
        >>> tf.keras.layers.AdaptiveAveragePooling3D(1)(x).numpy().ravel()
        array([3.5], dtype=float32)
    """

    rank = 3
    _pool_op = staticmethod(avg_pool)


class AdaptiveMaxPooling3D(_AdaptivePooling):
    """The maximum of ``(batch, depth, rows, cols, channels)`` volumes over ``output_size`` adaptive cells.

    Example:
        >>> import companion as tf
        >>> x = tf.reshape(tf.range(8.0), [1, 2, 2, 2, 1])
        >>> tf.keras.layers.AdaptiveMaxPooling3D(1)(x).numpy().ravel()
        array([7.], dtype=float32)
    """

    rank = 3
    _pool_op = staticmethod(max_pool)
