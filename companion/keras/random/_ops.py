"""``keras.random``'s draws, as Keras 3 makes them on TensorFlow: stateless ops with `draw_seed`'s
pair, so they equal TensorFlow's numbers for the same seed or generator state."""

from companion._core import _dtypes
from companion._core._convert import as_input
from companion._ops._math import cast
from companion._ops._select import gather, where
from companion._ops._sort import argsort
from companion.keras.random._seed_generator import draw_seed
from companion.random import _ops as _random


def _dtype(dtype):
    return _dtypes.float32 if dtype is None else _dtypes.as_dtype(dtype)


def uniform(shape, minval=0.0, maxval=1.0, dtype=None, seed=None):
    """Uniform samples in ``[minval, maxval)``.

    Example:
        >>> import companion as tf
        >>> print(tf.keras.random.uniform([3], seed=1))
        companion.Tensor([0.8784882  0.45998025 0.60029125], shape=(3,), dtype=float32)
    """
    dtype = _dtype(dtype)
    return _random.stateless_uniform(shape, draw_seed(seed), as_input(minval, dtype), as_input(maxval, dtype),
                                     dtype)


def normal(shape, mean=0.0, stddev=1.0, dtype=None, seed=None):
    """Normal samples ``mean + stddev * N(0, 1)``."""
    return _random.stateless_normal(shape, draw_seed(seed), mean, stddev, _dtype(dtype))


def truncated_normal(shape, mean=0.0, stddev=1.0, dtype=None, seed=None):
    """Normal samples within two standard deviations of ``mean``."""
    return _random.stateless_truncated_normal(shape, draw_seed(seed), mean, stddev, _dtype(dtype))


def randint(shape, minval, maxval, dtype="int32", seed=None):
    """Integers in ``[minval, maxval)``."""
    dtype = _dtypes.as_dtype(dtype)
    inner = dtype if dtype.name in ("int32", "int64") else _dtypes.int64
    return cast(_random.stateless_uniform(shape, draw_seed(seed), minval, maxval, inner), dtype)


def dropout(inputs, rate, noise_shape=None, seed=None):
    """``inputs`` with each entry zeroed with probability ``rate`` and the rest scaled by
    ``1 / (1 - rate)`` (TF's stateless dropout: kept where a uniform draw is at least ``rate``)."""
    inputs = as_input(inputs)
    if rate == 1.0:
        return inputs * 0
    if rate == 0.0:
        return inputs
    sizes = inputs.shape.as_list()
    shape = sizes if noise_shape is None else [size if given is None else given
                                               for given, size in zip(noise_shape, sizes)]
    draws = _random.stateless_uniform(shape, draw_seed(seed), dtype=inputs.dtype)
    scaled = inputs * as_input(1.0 / (1.0 - rate), inputs.dtype)
    return where(draws >= as_input(rate, inputs.dtype), scaled, as_input(0.0, inputs.dtype))


def shuffle(x, axis=0, seed=None):
    """``x`` with its ``axis`` permuted by the order of uniform draws (Keras's rule)."""
    x = as_input(x)
    order = argsort(_random.stateless_uniform([x.shape.as_list()[axis]], draw_seed(seed)))
    return gather(x, order, axis=axis)
