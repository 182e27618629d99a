"""Flips and rotations: `flip_left_right`, `flip_up_down`, their seeded random versions, `rot90`,
`transpose`."""

import jax
import jax.numpy as jnp

from companion._core._op import op
from companion._ops._static import static_int
from companion.image._checks import image_input, random_key

_WIDTH, _HEIGHT = -2, -3


@op("flip", static=("axis",))
def _flip(image, axis):
    return jnp.flip(image, axis)


@op("random_flip", static=("axis",))
def _random_flip(image, key, axis):
    batch = image.shape[:-3]
    flip = jax.random.bernoulli(key, 0.5, batch).reshape(batch + (1, 1, 1))
    return jnp.where(flip, jnp.flip(image, axis), image)


@op("rot90", static=("k",))
def _rot90(image, k):
    return jnp.rot90(image, k, axes=(-3, -2))


def flip_left_right(image):
    """Mirrors images horizontally (reverses the width axis of ``[..., height, width, channels]``).

    Example:
        >>> import companion as tf
        >>> print(tf.image.flip_left_right(tf.reshape(tf.range(3), [1, 3, 1]))[0, :, 0])
        companion.Tensor([2 1 0], shape=(3,), dtype=int32)
    """
    return _flip(image_input(image, "flip_left_right"), axis=_WIDTH)


def flip_up_down(image):
    """Mirrors images vertically (reverses the height axis)."""
    return _flip(image_input(image, "flip_up_down"), axis=_HEIGHT)


def random_flip_left_right(image, seed=None):
    """Mirrors each image horizontally with probability 1/2 (each image of a batch on its own).

    Randomness follows TensorFlow's seed rules (`companion.random.set_seed` plus ``seed``),
    so a seeded program repeats its flips; the choices differ from TensorFlow's.

    Example:
        >>> import companion as tf
        >>> images = tf.reshape(tf.range(2 * 3), [2, 1, 3, 1])
        >>> out = tf.image.random_flip_left_right(images, seed=1)
        >>> out.shape
        TensorShape([2, 1, 3, 1])
    """
    return _random_flip(image_input(image, "random_flip_left_right"), random_key(seed), axis=_WIDTH)


def random_flip_up_down(image, seed=None):
    """Mirrors each image vertically with probability 1/2 (seeded like `random_flip_left_right`)."""
    return _random_flip(image_input(image, "random_flip_up_down"), random_key(seed), axis=_HEIGHT)


def rot90(image, k=1, name=None):
    """Rotates images counter-clockwise by ``k`` quarter turns."""
    return _rot90(image_input(image, "rot90"), k=static_int(k, "rot90: k") % 4)


@op("image_transpose")
def _transpose(image):
    return jnp.swapaxes(image, -3, -2)


def transpose(image, name=None):
    """Swaps the height and width axes of images (``[..., h, w, c]`` -> ``[..., w, h, c]``)."""
    return _transpose(image_input(image, "transpose"))
