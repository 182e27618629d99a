"""Layers that rearrange each example: `Permute`, `RepeatVector`, `UpSampling1D`/`2D`,
`ZeroPadding1D`/`2D` and `Cropping1D`/`2D` (channels last by default, as Keras)."""

import jax
import jax.numpy as jnp

from companion._core._convert import as_input
from companion._core._op import op
from companion._ops._array import pad, transpose
from companion.keras.layers._layer import Layer


def _pair(value, what, layer):
    """``value`` as ``(before, after)`` (an int pads or crops both sides)."""
    pair = (value, value) if isinstance(value, int) else tuple(value)
    if len(pair) != 2 or any(not isinstance(v, int) or v < 0 for v in pair):
        raise ValueError(f"{layer}: {what} must be a non-negative int or a pair of them. Received: "
                         f"{what}={value!r}")
    return pair


def _pairs_2d(value, what, layer, rank=2):
    """``((top, bottom), (left, right))`` from an int, a pair ``(rows, cols)`` or two pairs (with
    ``rank`` 3: three of each, for depth, rows and columns)."""
    if isinstance(value, int):
        return ((value, value),) * rank
    value = tuple(value)
    if len(value) != rank:
        shape = "(rows, cols) or ((top, bottom), (left, right))" if rank == 2 else \
            "(depth, rows, cols) or three (before, after) pairs"
        raise ValueError(f"{layer}: {what} must be an int, {shape}. Received: {what}={value!r}")
    return tuple(_pair(v, what, layer) for v in value)


def _spatial_axes(data_format, rank, layer):
    if data_format in (None, "channels_last"):
        return tuple(range(1, rank - 1))
    if data_format == "channels_first":
        return tuple(range(2, rank))
    raise ValueError(f"{layer}: data_format must be 'channels_last' or 'channels_first'. Received: "
                     f"data_format={data_format!r}")


class Permute(Layer):
    """Permutes the non-batch axes: ``dims`` lists them (1-based) in their new order.

    Example:
        >>> import companion as tf
        >>> tf.keras.layers.Permute((2, 1))(tf.ones([4, 2, 3])).shape
        TensorShape([4, 3, 2])
    """

    def __init__(self, dims, **kwargs):
        super().__init__(**kwargs)
        self.dims = tuple(dims)
        if sorted(self.dims) != list(range(1, len(self.dims) + 1)):
            raise ValueError(f"Permute: dims must be a permutation of 1..{len(self.dims)} (the batch axis "
                             f"0 stays first). Received: dims={dims!r}")

    def call(self, inputs):
        return transpose(inputs, (0,) + self.dims)

    def compute_output_shape(self, input_shape):
        shape = tuple(input_shape)
        return (shape[0],) + tuple(shape[d] for d in self.dims)

    def get_config(self):
        return {**super().get_config(), "dims": self.dims}


@op("keras_repeat_vector", static=("n",))
def _repeat_vector(x, n):
    return jnp.repeat(x[:, None, :], n, axis=1)


class RepeatVector(Layer):
    """Repeats each example (a vector) ``n`` times: ``[batch, features]`` to ``[batch, n, features]``.

    Example:
        >>> import companion as tf
        >>> tf.keras.layers.RepeatVector(3)(tf.ones([2, 4])).shape
        TensorShape([2, 3, 4])
    """

    def __init__(self, n, **kwargs):
        super().__init__(**kwargs)
        if not isinstance(n, int) or n < 1:
            raise ValueError(f"RepeatVector: n must be a positive int. Received: n={n!r}")
        self.n = n

    def call(self, inputs):
        inputs = as_input(inputs)
        if inputs.shape.rank != 2:
            raise ValueError(f"RepeatVector layer {self.name!r} expects inputs of rank 2 [batch, features]. "
                             f"Received shape {inputs.shape}.")
        return _repeat_vector(inputs, n=self.n)

    def compute_output_shape(self, input_shape):
        batch, features = tuple(input_shape)
        return (batch, self.n, features)

    def get_config(self):
        return {**super().get_config(), "n": self.n}


@op("keras_upsampling", static=("sizes", "axes", "interpolation"))
def _upsample(x, sizes, axes, interpolation):
    if interpolation == "nearest":
        for size, axis in zip(sizes, axes):
            x = jnp.repeat(x, size, axis=axis)
        return x
    shape = list(x.shape)
    for size, axis in zip(sizes, axes):
        shape[axis] *= size
    return jax.image.resize(x, shape, method=interpolation).astype(x.dtype)


class _UpSampling(Layer):
    _rank = 1

    def __init__(self, size, data_format=None, interpolation="nearest", **kwargs):
        super().__init__(**kwargs)
        sizes = (size,) * self._rank if isinstance(size, int) else tuple(size)
        if len(sizes) != self._rank or any(not isinstance(s, int) or s < 1 for s in sizes):
            raise ValueError(f"{type(self).__name__}: size must be a positive int or {self._rank} of them. "
                             f"Received: size={size!r}")
        if interpolation not in ("nearest", "bilinear", "bicubic", "lanczos3", "lanczos5"):
            raise ValueError(f"{type(self).__name__}: interpolation must be 'nearest' or 'bilinear' "
                             f"(or 'bicubic', 'lanczos3', 'lanczos5'). Received: {interpolation!r}")
        self.size, self.interpolation = sizes, interpolation
        self.data_format = data_format or "channels_last"
        _spatial_axes(self.data_format, 3, type(self).__name__)  # checks it

    def call(self, inputs):
        inputs = as_input(inputs)
        axes = _spatial_axes(self.data_format, inputs.shape.rank, type(self).__name__)
        return _upsample(inputs, sizes=self.size, axes=axes, interpolation=self.interpolation)

    def compute_output_shape(self, input_shape):
        shape = list(input_shape)
        for size, axis in zip(self.size, _spatial_axes(self.data_format, len(shape), type(self).__name__)):
            shape[axis] = None if shape[axis] is None else shape[axis] * size
        return tuple(shape)

    def get_config(self):
        return {**super().get_config(), "size": self.size, "data_format": self.data_format,
                "interpolation": self.interpolation}


class UpSampling1D(_UpSampling):
    """Repeats each step ``size`` times along the steps axis of ``[batch, steps, features]``.

    Example:
        >>> import companion as tf
        >>> tf.keras.layers.UpSampling1D(2)(tf.reshape(tf.range(2.0), [1, 2, 1]))[0, :, 0].numpy()
        array([0., 0., 1., 1.], dtype=float32)
    """

    _rank = 1

    def __init__(self, size=2, **kwargs):
        super().__init__(size, **kwargs)

    def get_config(self):
        config = super().get_config()
        config["size"] = config["size"][0]
        for key in ("data_format", "interpolation"):
            config.pop(key)
        return config


class UpSampling2D(_UpSampling):
    """Repeats rows and columns of images ``size`` times (``'nearest'``), or resizes them
    (``'bilinear'``).

    Example:
        >>> import companion as tf
        >>> tf.keras.layers.UpSampling2D()(tf.ones([1, 2, 3, 4])).shape
        TensorShape([1, 4, 6, 4])
    """

    _rank = 2

    def __init__(self, size=(2, 2), data_format=None, interpolation="nearest", **kwargs):
        super().__init__(size, data_format=data_format, interpolation=interpolation, **kwargs)


class UpSampling3D(_UpSampling):
    """Repeats the depth, rows and columns of volumes ``size`` times."""

    _rank = 3

    def __init__(self, size=(2, 2, 2), data_format=None, **kwargs):
        super().__init__(size, data_format=data_format, **kwargs)

    def get_config(self):
        config = super().get_config()
        config.pop("interpolation")  # Keras's UpSampling3D has none
        return config


class _Border(Layer):
    """Zero padding (``_sign`` 1) or cropping (``_sign`` -1) of the spatial axes by (before, after)."""

    _sign = 1
    _argument = "padding"

    def __init__(self, amounts, data_format=None, **kwargs):
        super().__init__(**kwargs)
        self.amounts, self.data_format = amounts, data_format or "channels_last"
        _spatial_axes(self.data_format, 3, type(self).__name__)  # checks it

    def _per_axis(self, rank):
        axes = _spatial_axes(self.data_format, rank, type(self).__name__)
        return dict(zip(axes, self.amounts))

    def call(self, inputs):
        inputs = as_input(inputs)
        per_axis = self._per_axis(inputs.shape.rank)
        if self._sign > 0:
            return pad(inputs, [list(per_axis.get(axis, (0, 0))) for axis in range(inputs.shape.rank)])
        index = []
        for axis in range(inputs.shape.rank):
            before, after = per_axis.get(axis, (0, 0))
            size = inputs.shape[axis]
            if axis in per_axis and size is not None and before + after >= size:
                raise ValueError(f"{type(self).__name__} layer {self.name!r}: cropping {(before, after)} "
                                 f"leaves nothing of axis {axis} of size {size}. Received input shape "
                                 f"{inputs.shape}.")
            index.append(slice(before, None if after == 0 else -after))
        return inputs[tuple(index)]

    def compute_output_shape(self, input_shape):
        shape = list(input_shape)
        for axis, (before, after) in self._per_axis(len(shape)).items():
            if shape[axis] is not None:
                shape[axis] += self._sign * (before + after)
        return tuple(shape)

    def get_config(self):
        amounts = self.amounts[0] if len(self.amounts) == 1 else self.amounts
        return {**super().get_config(), self._argument: amounts, "data_format": self.data_format}


class ZeroPadding1D(_Border):
    """Adds zeros before and after the steps of ``[batch, steps, features]``.

    Example:
        >>> import companion as tf
        >>> tf.keras.layers.ZeroPadding1D(1)(tf.ones([1, 2, 1]))[0, :, 0].numpy()
        array([0., 1., 1., 0.], dtype=float32)
    """

    def __init__(self, padding=1, **kwargs):
        super().__init__((_pair(padding, "padding", "ZeroPadding1D"),), **kwargs)


class ZeroPadding2D(_Border):
    """Adds rows and columns of zeros around images: ``padding`` is an int, ``(rows, cols)`` or
    ``((top, bottom), (left, right))``.

    Example:
        >>> import companion as tf
        >>> tf.keras.layers.ZeroPadding2D(1)(tf.ones([1, 2, 2, 3])).shape
        TensorShape([1, 4, 4, 3])
    """

    def __init__(self, padding=(1, 1), data_format=None, **kwargs):
        super().__init__(_pairs_2d(padding, "padding", "ZeroPadding2D"), data_format=data_format, **kwargs)


class Cropping1D(_Border):
    """Removes ``cropping = (before, after)`` steps from the ends of ``[batch, steps, features]``.

    Example:
        >>> import companion as tf
        >>> tf.keras.layers.Cropping1D((1, 0))(tf.reshape(tf.range(3.0), [1, 3, 1]))[0, :, 0].numpy()
        array([1., 2.], dtype=float32)
    """

    _sign = -1
    _argument = "cropping"

    def __init__(self, cropping=(1, 1), **kwargs):
        super().__init__((_pair(cropping, "cropping", "Cropping1D"),), **kwargs)

    def get_config(self):
        config = super().get_config()
        config.pop("data_format")  # Keras's Cropping1D has none
        return config


class Cropping2D(_Border):
    """Removes rows and columns at the borders of images: ``cropping`` is an int, ``(rows, cols)``
    or ``((top, bottom), (left, right))``.

    Example:
        >>> import companion as tf
        >>> tf.keras.layers.Cropping2D(((1, 0), (0, 2)))(tf.ones([1, 4, 5, 3])).shape
        TensorShape([1, 3, 3, 3])
    """

    _sign = -1
    _argument = "cropping"

    def __init__(self, cropping=((0, 0), (0, 0)), data_format=None, **kwargs):
        super().__init__(_pairs_2d(cropping, "cropping", "Cropping2D"), data_format=data_format, **kwargs)


class ZeroPadding3D(_Border):
    """Adds zeros around volumes: ``padding`` is an int, ``(depth, rows, cols)`` or three pairs."""

    def __init__(self, padding=(1, 1, 1), data_format=None, **kwargs):
        super().__init__(_pairs_2d(padding, "padding", "ZeroPadding3D", rank=3), data_format=data_format,
                         **kwargs)


class Cropping3D(_Border):
    """Removes borders of volumes: ``cropping`` is an int, ``(depth, rows, cols)`` or three pairs."""

    _sign = -1
    _argument = "cropping"

    def __init__(self, cropping=((1, 1), (1, 1), (1, 1)), data_format=None, **kwargs):
        super().__init__(_pairs_2d(cropping, "cropping", "Cropping3D", rank=3), data_format=data_format,
                         **kwargs)
