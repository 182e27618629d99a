"""Keras 3's image preprocessing layers: `Resizing`, `CenterCrop` (deterministic) and the random
augmentations `RandomFlip`, `RandomRotation`, `RandomZoom`, `RandomTranslation`, `RandomCrop`,
`RandomContrast`, `RandomBrightness` (active while training; called directly they train, as in
Keras 3). Images are channels-last ``[batch, height, width, channels]`` or one ``[h, w, c]`` image.
Random draws follow companion's seed rules (a ``seed`` gives the layer its own stream); the numbers
differ from TensorFlow's."""

import math

import jax
import jax.numpy as jnp

from companion._core._convert import as_input
from companion._core._op import op
from companion._ops._math import cast
from companion.image._resize import resize
from companion.keras.layers._layer import Layer
from companion.keras.layers._training_value import select, training_value
from companion.keras.random._seed_generator import keras_default_seed
from companion.random import Generator
from companion.random._ops import stream_uniform as uniform


def _channels_last(data_format, layer):
    if data_format not in (None, "channels_last"):
        raise ValueError(f"{layer}: only data_format='channels_last' is supported by companion. Received: "
                         f"data_format={data_format!r}")
    return "channels_last"


def _batched(images):
    images = as_input(images)
    if images.ndim not in (3, 4):
        raise ValueError(f"Expected an image [height, width, channels] or a batch [batch, height, width, "
                         f"channels]. Received shape {list(images.shape)}.")
    return (images, False) if images.ndim == 4 else (images[None], True)


def smart_resize(images, height, width, interpolation="bilinear"):
    """The largest centred window with the target's aspect ratio, resized to ``(height, width)``
    (Keras's ``smart_resize``)."""
    images, single = _batched(images)
    h, w = images.shape[1], images.shape[2]
    crop_h = min(h, int(float(w * height) / width))
    crop_w = min(w, int(float(h * width) / height))
    top, left = int(float(h - crop_h) / 2), int(float(w - crop_w) / 2)
    out = resize(images[:, top:top + crop_h, left:left + crop_w, :], [height, width], method=interpolation)
    return out[0] if single else out


class _Augmentation(Layer):
    """A layer active while training (``training`` None counts as True, Keras 3's default)."""

    def __init__(self, seed=None, data_format=None, **kwargs):
        super().__init__(**kwargs)
        self.seed = seed
        self.data_format = _channels_last(data_format, type(self).__name__)
        self._generator = None if seed is None else Generator.from_seed(seed)
        keras_default_seed(seed)  # Keras's layer makes a SeedGenerator: the same Python-random draw
        self.supports_masking = False

    def _uniform(self, shape, low, high):
        if self._generator is not None:
            return self._generator.uniform(shape, minval=low, maxval=high)
        return uniform(shape, minval=low, maxval=high)

    def call(self, inputs, training=True):
        inputs = cast(inputs, self._dtype)
        training = training_value(True if training is None else training)
        if training is False:
            return self._inference(inputs)
        return select(training, lambda: self._augment(inputs), lambda: self._inference(inputs))

    def _inference(self, inputs):
        return inputs

    def compute_output_shape(self, input_shape):
        return input_shape

    def get_config(self):
        return {**super().get_config(), "seed": self.seed, "data_format": self.data_format}


class Resizing(Layer):
    """Resizes images to ``(height, width)`` (``crop_to_aspect_ratio``: the centred window with the
    target aspect ratio first, as `smart_resize`).

    Example:
        >>> import companion as tf
        >>> tf.keras.layers.Resizing(2, 3)(tf.ones([1, 4, 4, 3])).shape
        TensorShape([1, 2, 3, 3])
    """

    def __init__(self, height, width, interpolation="bilinear", crop_to_aspect_ratio=False,
                 pad_to_aspect_ratio=False, fill_mode="constant", fill_value=0.0, antialias=False,
                 data_format=None, **kwargs):
        super().__init__(**kwargs)
        if pad_to_aspect_ratio:
            raise NotImplementedError("Resizing(pad_to_aspect_ratio=True) is not supported by companion. Pad "
                                      "with companion.image.pad_to_bounding_box first, or crop instead "
                                      "(crop_to_aspect_ratio=True).")
        self.height, self.width = int(height), int(width)
        self.interpolation, self.crop_to_aspect_ratio = interpolation, bool(crop_to_aspect_ratio)
        self.pad_to_aspect_ratio = bool(pad_to_aspect_ratio)
        self.fill_mode, self.fill_value = fill_mode, fill_value
        self.antialias = bool(antialias)
        self.data_format = _channels_last(data_format, "Resizing")

    def call(self, inputs):
        images = cast(inputs, self._dtype)
        if self.crop_to_aspect_ratio:
            return smart_resize(images, self.height, self.width, self.interpolation)
        return resize(images, [self.height, self.width], method=self.interpolation, antialias=self.antialias)

    def compute_output_shape(self, input_shape):
        shape = list(input_shape)
        shape[-3:-1] = [self.height, self.width]
        return tuple(shape)

    def get_config(self):
        return {**super().get_config(), "height": self.height, "width": self.width,
                "interpolation": self.interpolation, "crop_to_aspect_ratio": self.crop_to_aspect_ratio,
                "pad_to_aspect_ratio": self.pad_to_aspect_ratio, "fill_mode": self.fill_mode,
                "fill_value": self.fill_value, "antialias": self.antialias, "data_format": self.data_format}


class CenterCrop(Layer):
    """The centred ``(height, width)`` window of each image (resized by `smart_resize` when an image
    is smaller than that).

    Example:
        >>> import companion as tf
        >>> tf.keras.layers.CenterCrop(2, 2)(tf.reshape(tf.range(16.0), [1, 4, 4, 1]))[0, :, :, 0].numpy()
        array([[ 5.,  6.],
               [ 9., 10.]], dtype=float32)
    """

    def __init__(self, height, width, data_format=None, **kwargs):
        super().__init__(**kwargs)
        self.height, self.width = int(height), int(width)
        self.data_format = _channels_last(data_format, "CenterCrop")

    def call(self, inputs):
        images = cast(inputs, self._dtype)
        h, w = images.shape[-3], images.shape[-2]
        if h >= self.height and w >= self.width:
            top, left = (h - self.height) // 2, (w - self.width) // 2
            return images[..., top:top + self.height, left:left + self.width, :]
        return smart_resize(images, self.height, self.width)

    def compute_output_shape(self, input_shape):
        shape = list(input_shape)
        shape[-3:-1] = [self.height, self.width]
        return tuple(shape)

    def get_config(self):
        return {**super().get_config(), "height": self.height, "width": self.width,
                "data_format": self.data_format}


class RandomFlip(_Augmentation):
    """Flips each image left-right (``"horizontal"``), up-down (``"vertical"``) or both, each with
    probability 1/2, while training."""

    def __init__(self, mode="horizontal_and_vertical", seed=None, data_format=None, **kwargs):
        if mode not in ("horizontal", "vertical", "horizontal_and_vertical"):
            raise ValueError("RandomFlip layer {name} received an unknown mode argument {mode}. Use "
                             "'horizontal', 'vertical' or 'horizontal_and_vertical'."
                             .format(name=kwargs.get("name"), mode=repr(mode)))
        super().__init__(seed=seed, data_format=data_format, **kwargs)
        self.mode = mode

    def _augment(self, inputs):
        images, single = _batched(inputs)
        flips_shape = [images.shape[0], 1, 1, 1]
        out = images
        for axis, wanted in ((2, "horizontal"), (1, "vertical")):
            if wanted in self.mode:
                out = _flip_where(out, self._uniform(flips_shape, 0.0, 1.0) <= 0.5, axis=axis)
        return out[0] if single else out

    def get_config(self):
        return {**super().get_config(), "mode": self.mode}


@op("flip_where", static=("axis",))
def _flip_where(images, flips, axis):
    return jnp.where(flips, jnp.flip(images, axis), images)


_FILL_MODES = ("reflect", "wrap", "constant", "nearest")


def _map_coordinate(c, size, mode):
    """TF's ImageProjectiveTransform coordinate mapping for a fill mode (then clamped into the image,
    except for 'constant', whose outside reads give the fill value)."""
    if mode == "constant" or size <= 1:
        return c if mode == "constant" else jnp.zeros_like(c)
    if mode == "reflect":
        span = 2.0 * size
        low = jnp.where(c < -span, span * jnp.trunc(-c / span) + c, c)
        low = jnp.where(low < -size, low + span, -low - 1)
        high = c - span * jnp.trunc(c / span)
        high = jnp.where(high >= size, span - high - 1, high)
        c = jnp.where(c < 0, low, jnp.where(c > size - 1, high, c))
    elif mode == "wrap":
        span = size - 1.0
        c = jnp.where(c < 0, c + size * (jnp.trunc(-c / span) + 1),
                      jnp.where(c > size - 1, c - size * jnp.trunc(c / span), c))
    return jnp.clip(c, 0, size - 1)


@op("affine_transform", static=("nearest", "mode", "fill_value"))
def _affine(images, matrices, nearest, mode, fill_value):
    """Output pixel (x, y) reads input ((a0 x + a1 y + a2), (b0 x + b1 y + b2)) of its image, with TF's
    coordinate mapping per fill mode and bilinear (or round-half-away) sampling."""
    _, h, w, _ = images.shape
    ys, xs = jnp.meshgrid(jnp.arange(h, dtype=images.dtype), jnp.arange(w, dtype=images.dtype), indexing="ij")
    fill = jnp.asarray(fill_value, images.dtype)

    def read(image, y, x):
        inside = (y >= 0) & (y < h) & (x >= 0) & (x < w)
        pixels = image[jnp.clip(y, 0, h - 1), jnp.clip(x, 0, w - 1)]
        return jnp.where(inside[..., None], pixels, fill)

    def one(image, m):
        x = _map_coordinate(m[0] * xs + m[1] * ys + m[2], w, mode)
        y = _map_coordinate(m[3] * xs + m[4] * ys + m[5], h, mode)
        if nearest:
            def rounded(v):
                return (jnp.sign(v) * jnp.floor(jnp.abs(v) + 0.5)).astype(jnp.int32)

            return read(image, rounded(y), rounded(x))
        y0, x0 = jnp.floor(y), jnp.floor(x)
        wy, wx = (y - y0)[..., None], (x - x0)[..., None]
        y0, x0 = y0.astype(jnp.int32), x0.astype(jnp.int32)
        top = (1 - wx) * read(image, y0, x0) + wx * read(image, y0, x0 + 1)
        bottom = (1 - wx) * read(image, y0 + 1, x0) + wx * read(image, y0 + 1, x0 + 1)
        return (1 - wy) * top + wy * bottom

    return jax.vmap(one)(images, matrices.astype(images.dtype))


class _AffineAugmentation(_Augmentation):
    def __init__(self, fill_mode="reflect", interpolation="bilinear", seed=None, fill_value=0.0,
                 data_format=None, **kwargs):
        super().__init__(seed=seed, data_format=data_format, **kwargs)
        if fill_mode not in _FILL_MODES:
            raise NotImplementedError(f"Unknown `fill_mode` {fill_mode!r}. Only {sorted(_FILL_MODES)} are "
                                      "supported.")
        if interpolation not in ("nearest", "bilinear"):
            raise NotImplementedError(f"Unknown `interpolation` {interpolation!r}. Only 'nearest' and "
                                      "'bilinear' are supported.")
        self.fill_mode, self.interpolation, self.fill_value = fill_mode, interpolation, fill_value

    def _augment(self, inputs):
        images, single = _batched(inputs)
        matrices = self._matrices(images.shape[0], images.shape[1], images.shape[2])
        out = _affine(images, matrices, nearest=self.interpolation == "nearest", mode=self.fill_mode,
                      fill_value=float(self.fill_value))
        return out[0] if single else out

    def get_config(self):
        return {**super().get_config(), "fill_mode": self.fill_mode, "interpolation": self.interpolation,
                "fill_value": self.fill_value}


def _bounds(factor, what):
    lower, upper = (-factor, factor) if isinstance(factor, (int, float)) else tuple(factor)
    if upper < lower:
        raise ValueError(f"`{what}` must have lower <= upper. Received: {what}={factor!r}")
    return float(lower), float(upper)


class RandomRotation(_AffineAugmentation):
    """Rotates each image by a random angle in ``factor`` (fractions of a full turn: 0.1 is up to
    36 degrees either way; a pair gives ``(lower, upper)``) about its centre, while training."""

    def __init__(self, factor, fill_mode="reflect", interpolation="bilinear", seed=None, fill_value=0.0,
                 data_format=None, **kwargs):
        super().__init__(fill_mode, interpolation, seed, fill_value, data_format, **kwargs)
        self.factor = factor
        self._lower, self._upper = _bounds(factor, "factor")

    def _matrices(self, batch, h, w):
        angles = self._uniform([batch], self._lower * 2 * math.pi, self._upper * 2 * math.pi)
        return _rotation_matrices(angles, h=float(h), w=float(w))

    def get_config(self):
        return {**super().get_config(), "factor": self.factor}


@op("rotation_matrices", static=("h", "w"))
def _rotation_matrices(angles, h, w):
    cos, sin = jnp.cos(angles), jnp.sin(angles)
    x_offset = ((w - 1) - (cos * (w - 1) - sin * (h - 1))) / 2.0
    y_offset = ((h - 1) - (sin * (w - 1) + cos * (h - 1))) / 2.0
    return jnp.stack([cos, -sin, x_offset, sin, cos, y_offset], axis=1)


class RandomZoom(_AffineAugmentation):
    """Zooms each image by a random factor about its centre while training: ``height_factor`` 0.2 is
    a zoom in [-20 %, +20 %] (positive values zoom out), ``width_factor`` None keeps the aspect ratio."""

    def __init__(self, height_factor, width_factor=None, fill_mode="reflect", interpolation="bilinear",
                 seed=None, fill_value=0.0, data_format=None, **kwargs):
        super().__init__(fill_mode, interpolation, seed, fill_value, data_format, **kwargs)
        self.height_factor, self.width_factor = height_factor, width_factor
        self._height = _bounds(height_factor, "height_factor")
        self._width = None if width_factor is None else _bounds(width_factor, "width_factor")

    def _matrices(self, batch, h, w):
        zoom_y = self._uniform([batch], 1.0 + self._height[0], 1.0 + self._height[1])
        zoom_x = zoom_y if self._width is None else self._uniform([batch], 1.0 + self._width[0],
                                                                  1.0 + self._width[1])
        return _zoom_matrices(zoom_x, zoom_y, h=float(h), w=float(w))

    def get_config(self):
        return {**super().get_config(), "height_factor": self.height_factor,
                "width_factor": self.width_factor}


@op("zoom_matrices", static=("h", "w"))
def _zoom_matrices(zoom_x, zoom_y, h, w):
    zero = jnp.zeros_like(zoom_x)
    return jnp.stack([zoom_x, zero, (w - 1) / 2.0 * (1 - zoom_x), zero, zoom_y, (h - 1) / 2.0 * (1 - zoom_y)],
                     axis=1)


class RandomTranslation(_AffineAugmentation):
    """Shifts each image by random fractions of its height and width (``height_factor``,
    ``width_factor``: a float f for [-f, f], or a pair) while training."""

    def __init__(self, height_factor, width_factor, fill_mode="reflect", interpolation="bilinear", seed=None,
                 fill_value=0.0, data_format=None, **kwargs):
        super().__init__(fill_mode, interpolation, seed, fill_value, data_format, **kwargs)
        self.height_factor, self.width_factor = height_factor, width_factor
        self._height = _bounds(height_factor, "height_factor")
        self._width = _bounds(width_factor, "width_factor")

    def _matrices(self, batch, h, w):
        dy = self._uniform([batch], self._height[0], self._height[1]) * h
        dx = self._uniform([batch], self._width[0], self._width[1]) * w
        return _shift_matrices(dx, dy)

    def get_config(self):
        return {**super().get_config(), "height_factor": self.height_factor,
                "width_factor": self.width_factor}


@op("shift_matrices")
def _shift_matrices(dx, dy):
    one, zero = jnp.ones_like(dx), jnp.zeros_like(dx)
    return jnp.stack([one, zero, -dx, zero, one, -dy], axis=1)


class RandomCrop(_Augmentation):
    """A random ``(height, width)`` window (one offset for the batch) while training (`smart_resize`
    for images smaller than that); with ``training=False`` the images pass unchanged, as in Keras 3."""

    def __init__(self, height, width, seed=None, data_format=None, **kwargs):
        super().__init__(seed=seed, data_format=data_format, **kwargs)
        self.height, self.width = int(height), int(width)

    def _augment(self, inputs):
        h, w = inputs.shape[-3], inputs.shape[-2]
        if h < self.height or w < self.width:
            return smart_resize(inputs, self.height, self.width)
        top = _offset(self._uniform([], 0.0, 1.0), h - self.height)
        left = _offset(self._uniform([], 0.0, 1.0), w - self.width)
        return _window(inputs, top, left, height=self.height, width=self.width)

    def compute_output_shape(self, input_shape):
        shape = list(input_shape)
        shape[-3:-1] = [self.height, self.width]
        return tuple(shape)

    def get_config(self):
        return {**super().get_config(), "height": self.height, "width": self.width}


def _offset(draw, room):
    return cast(draw * (room + 1), "int32") if room > 0 else as_input(0)


@op("crop_window", static=("height", "width"))
def _window(images, top, left, height, width):
    starts = [jnp.int32(0)] * images.ndim
    starts[-3] = jnp.minimum(top, images.shape[-3] - height)
    starts[-2] = jnp.minimum(left, images.shape[-2] - width)
    sizes = list(images.shape)
    sizes[-3], sizes[-2] = height, width
    return jax.lax.dynamic_slice(images, starts, sizes)


class _ValueRangeAugmentation(_Augmentation):
    def __init__(self, factor, value_range=(0, 255), seed=None, **kwargs):
        super().__init__(seed=seed, **kwargs)
        if len(value_range) != 2 or value_range[0] >= value_range[1]:
            raise ValueError(f"`value_range` must be (min, max) with min < max. Received: {value_range!r}")
        self.factor, self.value_range = factor, value_range

    def get_config(self):
        return {**super().get_config(), "factor": self.factor, "value_range": self.value_range}


class RandomContrast(_ValueRangeAugmentation):
    """Scales each image's distance from its per-channel mean by a random factor in
    ``[1 - lower, 1 + upper]`` (``factor`` f: lower = upper = f) while training, clipped to
    ``value_range``."""

    def __init__(self, factor, value_range=(0, 255), seed=None, **kwargs):
        super().__init__(factor, value_range, seed, **kwargs)
        lower, upper = (factor, factor) if isinstance(factor, (int, float)) else tuple(factor)
        if lower < 0 or upper < 0 or lower > 1:
            raise ValueError(f"`factor` must be non-negative (and lower <= 1). Received: factor={factor!r}")
        self._lower, self._upper = float(lower), float(upper)

    def _augment(self, inputs):
        images, single = _batched(inputs)
        factors = self._uniform([images.shape[0], 1, 1, 1], 1.0 - self._lower, 1.0 + self._upper)
        out = _contrast(images, factors, low=float(self.value_range[0]), high=float(self.value_range[1]))
        return out[0] if single else out


@op("random_contrast_apply", static=("low", "high"))
def _contrast(images, factors, low, high):
    mean = jnp.mean(images, axis=(1, 2), keepdims=True)
    return jnp.clip((images - mean) * factors.astype(images.dtype) + mean, low, high)


class RandomBrightness(_ValueRangeAugmentation):
    """Adds a random delta (``factor``: a fraction of ``value_range``'s width, f for [-f, f]) to each
    image while training, clipped to ``value_range``."""

    def __init__(self, factor, value_range=(0, 255), seed=None, **kwargs):
        super().__init__(factor, value_range, seed, **kwargs)
        self._lower, self._upper = _bounds(factor, "factor")
        if not (-1 <= self._lower <= 1 and -1 <= self._upper <= 1):
            raise ValueError(f"`factor` must be in [-1, 1]. Received: factor={factor!r}")

    def _augment(self, inputs):
        images, single = _batched(inputs)
        span = float(self.value_range[1] - self.value_range[0])
        deltas = self._uniform([images.shape[0], 1, 1, 1], self._lower * span, self._upper * span)
        out = _brightness(images, deltas, low=float(self.value_range[0]), high=float(self.value_range[1]))
        return out[0] if single else out


@op("random_brightness_apply", static=("low", "high"))
def _brightness(images, deltas, low, high):
    return jnp.clip(images + deltas.astype(images.dtype), low, high)
