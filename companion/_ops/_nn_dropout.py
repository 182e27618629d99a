"""``dropout``: zero random elements and scale the rest, with the PRNG key as an op input."""

import numbers

import jax
import numpy as np

from companion._core._context import state
from companion._core._convert import as_input, is_tensor
from companion._core._dispatch import elementwise_dispatch
from companion._core._op import op
from companion._core._tensor import Tensor
from companion._ops import _random
from companion._ops._math import cast
from companion._ops._nn import shape_of
from companion._ops._select import where


@op("dropout_mask", static=("noise_shape",))
def _dropout_mask(key, rate, noise_shape):
    """The scaled keep mask: ``1 / (1 - rate)`` where an element is kept, 0 where it is dropped."""
    keep = jax.random.uniform(key, noise_shape, dtype=rate.dtype) >= rate
    return keep.astype(rate.dtype) * (1 / (1 - rate))


@op("dropout")
def _dropout(x, mask):
    # A separate op from the mask, so a tape records only this product: the gradient's replay
    # reuses the mask instead of drawing the random numbers again (and compiling the generator).
    return x * mask


@elementwise_dispatch
def dropout(x, rate, noise_shape=None, seed=None, name=None):
    """Sets each element of ``x`` to 0 with probability ``rate`` and scales the rest by ``1 / (1 - rate)``.

    The scaling keeps the expected value of every element unchanged. Randomness follows
    TensorFlow's seed rules (`companion.random.set_seed` plus the op ``seed``).

    Args:
        x: a float tensor.
        rate: the probability of dropping an element, a float (or scalar tensor) in [0, 1).
        noise_shape: a shape that broadcasts to ``x.shape``; elements sharing a noise value are
            kept or dropped together (e.g. ``[batch, 1, 1, channels]`` drops whole channels).
            ``None`` entries take the size of ``x``'s dimension.
        seed: an optional op-level seed.

    Returns:
        A tensor shaped and typed like ``x``.

    Raises:
        TypeError: ``x`` is not a floating-point tensor.
        ValueError: ``rate`` is outside [0, 1), or ``noise_shape`` does not broadcast to ``x``.

    Example:
        >>> import companion as tf
        >>> y = tf.nn.dropout(tf.ones([1000]), rate=0.5, seed=1)
        >>> sorted(set(y.numpy().tolist()))
        [0.0, 2.0]
    """
    if _random.tf_eager_seeded(seed) and (not state.staging or _random.in_function_trace()):
        return _tf_eager_dropout(x, rate, noise_shape, seed)
    return keyed_dropout(x, rate, _key(seed), noise_shape)


def stream_dropout(x, rate, noise_shape=None):
    """`dropout` drawing from companion's unseeded stream, never TF's op seeds (Keras's internals)."""
    return keyed_dropout(x, rate, _key(None), noise_shape)


def _tf_eager_dropout(x, rate, noise_shape, seed):
    """TF's dropout, eagerly or in a function: kept where its seeded ``random.uniform`` draw reaches
    ``rate`` (TF's numbers)."""
    x = as_input(x)
    if not x.dtype.is_floating:
        return keyed_dropout(x, rate, None, noise_shape)  # raises the dtype error
    rate = _rate_input(rate, x.dtype)
    noise = _noise_shape(noise_shape, shape_of(x))
    # deferred: companion.random is built on this op layer
    from companion.random._ops import uniform

    draws = uniform(list(noise), dtype=x.dtype, seed=seed)
    scaled = x * (as_input(1.0, x.dtype) / (as_input(1.0, x.dtype) - rate))
    return where(draws >= rate, scaled, as_input(0.0, x.dtype))


def keyed_dropout(x, rate, key, noise_shape=None):
    """`dropout` drawing its mask with the raw PRNG ``key`` (a Keras layer's own seed generator)."""
    x = as_input(x)
    if not x.dtype.is_floating:
        raise TypeError(f"dropout: x must be a floating-point tensor, since kept values are scaled by "
                        f"1 / (1 - rate). Received dtype {x.dtype.name}: {x!s}. Cast it first, e.g. "
                        "companion.cast(x, companion.float32).")
    rate = _rate_input(rate, x.dtype)
    noise = _noise_shape(noise_shape, shape_of(x))
    key = key if is_tensor(key) else Tensor(_random.key_array(key))
    return _dropout(x, _dropout_mask(key, rate, noise_shape=noise))


def _rate_input(rate, dtype):
    """``rate`` as a scalar tensor of ``dtype``, checked to lie in [0, 1) when its value is known."""
    if is_tensor(rate):
        if rate.ndim != 0:
            raise ValueError(f"dropout: rate must be a scalar. Received a tensor of shape {shape_of(rate)}.")
        if not rate.is_traced:
            _check_rate(float(rate))
        return rate if rate.dtype == dtype else cast(rate, dtype)
    if not isinstance(rate, numbers.Real):
        raise TypeError(f"dropout: rate must be a float in [0, 1) or a scalar tensor. Received: {rate!r}")
    _check_rate(rate)
    return as_input(float(rate), dtype)


def _check_rate(value):
    if not 0 <= value < 1:
        raise ValueError(f"dropout: rate must be in the range [0, 1): it is the probability of dropping "
                         f"an element. Received: rate={value!r}")


def _noise_shape(noise_shape, x_shape):
    if noise_shape is None:
        return x_shape
    dims = np.asarray(noise_shape, dtype=object).reshape(-1).tolist()
    if len(dims) == len(x_shape):
        dims = [x if d is None else d for d, x in zip(dims, x_shape)]
    try:
        noise = tuple(int(d) for d in dims)
        fits = np.broadcast_shapes(noise, x_shape) == x_shape
    except (TypeError, ValueError):
        fits = False
    if not fits:
        raise ValueError(f"dropout: noise_shape must broadcast to the shape of x, {x_shape}. Received: "
                         f"noise_shape={noise_shape!r}")
    return noise


def _key(seed):
    key = _random.next_key(seed)  # looked up at call time, so tests can substitute a fixed key
    return key if is_tensor(key) else Tensor(_random.key_array(key))
