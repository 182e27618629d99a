"""The ``stateless_random_*`` image augmentations: each draws its random value with
`random.stateless_uniform` from ``seed`` (a pair of ints) exactly as TensorFlow's do, so the same
seed gives TensorFlow's flips, crops and colour changes."""

import numpy as np

from companion._core._convert import as_input
from companion._core._errors import InvalidArgumentError
from companion._ops._array import reshape, reverse
from companion._ops._math import cast, floormod, less
from companion._ops._math import round as round_half_even
from companion._ops._select import slice as slice_at
from companion._ops._select import where
from companion.image._checks import static_shape
from companion.image._color import adjust_brightness, adjust_contrast
from companion.image._hsv import adjust_hue, adjust_saturation
from companion.random._ops import stateless_uniform


def stateless_random_flip_left_right(image, seed):
    """Mirrors ``image`` (or each image of a batch) left to right with probability 1/2, decided by
    ``seed`` as in TensorFlow.

    Example:
        >>> import companion as tf
        >>> image = tf.reshape(tf.range(4.0), [1, 4, 1])
        >>> tf.image.stateless_random_flip_left_right(image, seed=[1, 2])[0, :, 0].numpy().tolist()
        [0.0, 1.0, 2.0, 3.0]
    """
    return _random_flip(image, 1, seed, "stateless_random_flip_left_right")


def stateless_random_flip_up_down(image, seed):
    """Mirrors ``image`` (or each image of a batch) top to bottom with probability 1/2 (``seed``)."""
    return _random_flip(image, 0, seed, "stateless_random_flip_up_down")


def stateless_random_brightness(image, max_delta, seed):
    """`adjust_brightness` by a delta drawn from ``[-max_delta, max_delta)`` with ``seed``."""
    if max_delta < 0:
        raise ValueError(f"stateless_random_brightness: max_delta must be non-negative. Received: "
                         f"max_delta={max_delta!r}")
    return adjust_brightness(image, stateless_uniform([], seed, minval=-max_delta, maxval=max_delta))


def stateless_random_contrast(image, lower, upper, seed):
    """`adjust_contrast` by a factor drawn from ``[lower, upper)`` with ``seed``."""
    _check_range(lower, upper, "stateless_random_contrast")
    return adjust_contrast(image, stateless_uniform([], seed, minval=lower, maxval=upper))


def stateless_random_saturation(image, lower, upper, seed=None):
    """`adjust_saturation` by a factor drawn from ``[lower, upper)`` with ``seed``."""
    _check_range(lower, upper, "stateless_random_saturation")
    return adjust_saturation(image, stateless_uniform([], seed, minval=lower, maxval=upper))


def stateless_random_hue(image, max_delta, seed):
    """`adjust_hue` by a delta drawn from ``[-max_delta, max_delta)`` (``max_delta <= 0.5``) with ``seed``."""
    if not 0 <= max_delta <= 0.5:
        raise ValueError(f"stateless_random_hue: max_delta must be in [0, 0.5]. Received: "
                         f"max_delta={max_delta!r}")
    return adjust_hue(image, stateless_uniform([], seed, minval=-max_delta, maxval=max_delta))


def stateless_random_crop(value, size, seed, name=None):
    """A slice of ``value`` of shape ``size`` at an offset drawn with ``seed`` (TensorFlow's offsets:
    a full-range int32 draw per dimension, modulo the room left).

    Example:
        >>> import companion as tf
        >>> tf.image.stateless_random_crop(tf.zeros([32, 32, 3]), size=[24, 24, 3], seed=[1, 2]).shape
        TensorShape([24, 24, 3])
    """
    value = as_input(value)
    size = [int(s) for s in np.asarray(size).reshape(-1)]
    shape = static_shape(value)
    if len(size) != len(shape) or any(s < 0 or s > d for s, d in zip(size, shape)):
        raise InvalidArgumentError(f"stateless_random_crop: need value.shape >= size, one size per "
                                   f"dimension. Received value of shape {list(shape)} and size={size}.")
    limit = [d - s + 1 for d, s in zip(shape, size)]
    draws = stateless_uniform([len(shape)], seed, maxval=np.iinfo(np.int32).max, dtype="int32")
    return slice_at(value, floormod(draws, limit), size)


def _random_flip(image, axis, seed, what):
    image = as_input(image)
    if image.ndim == 3:
        return where(less(stateless_uniform([], seed), 0.5), reverse(image, [axis]), image)
    if image.ndim != 4:
        raise ValueError(f"{what}: 'image' (shape {tuple(image.shape.as_list())}) must have either 3 or 4 "
                         "dimensions.")
    batch = image.shape.as_list()[0]
    flips = cast(round_half_even(reshape(stateless_uniform([batch], seed), [batch, 1, 1, 1])), image.dtype)
    return flips * reverse(image, [axis + 1]) + (1 - flips) * image


def _check_range(lower, upper, what):
    if upper <= lower:
        raise ValueError(f"{what}: upper must be > lower. Received: lower={lower!r}, upper={upper!r}")
    if lower < 0:
        raise ValueError(f"{what}: lower must be non-negative. Received: lower={lower!r}")
