"""``stateless_gamma``, ``stateless_poisson`` and ``stateless_binomial``: TensorFlow's numbers for a
seed (its kernels' rejection samplers on its Philox streams, `_philox_rejection`)."""

import numpy as np

from companion._core import _dtypes
from companion._core._convert import as_input
from companion._core._errors import InvalidArgumentError
from companion._ops._array import broadcast_to
from companion.random import _philox_binomial, _philox_rejection
from companion.random._sampling import static_shape

_FLOATS = ("float16", "float32", "float64")
_NUMBERS = _FLOATS + ("int32", "int64")


def stateless_gamma(shape, seed, alpha, beta=None, dtype=_dtypes.float32, name=None):
    """Gamma(``alpha``, rate ``beta``) samples, a function of ``seed`` (a pair of ints): TensorFlow's
    numbers for that seed. ``shape`` must end with the broadcast shape of ``alpha`` and ``beta``;
    ``samples[..., i]`` are draws for ``alpha[i]``, ``beta[i]``.

    Gradients flow to ``alpha`` (implicit reparameterization, as TF) and ``beta``.

    Example:
        >>> import companion as tf
        >>> print(tf.random.stateless_gamma([3], seed=[1, 2], alpha=1.0))
        companion.Tensor([3.4994423 1.7193093 2.2487352], shape=(3,), dtype=float32)
    """
    what = "random.stateless_gamma"
    dtype = _dtype(dtype, _FLOATS, what, "dtype")
    alpha = as_input(alpha, dtype)
    beta = as_input(1 if beta is None else beta, dtype)
    batch = _broadcast(alpha, beta, what, "alpha", "beta")
    shape = _ending_with(static_shape(shape, what), batch, what)
    alpha = alpha if tuple(alpha.shape) == batch else _broadcast_to(alpha, batch)
    seed = _seed(seed, what)
    return _philox_rejection.stateless_gamma(seed, alpha, beta, shape=shape, dtype=dtype._np)


def stateless_poisson(shape, seed, lam, dtype=_dtypes.int32, name=None):
    """Poisson(``lam``) samples, a function of ``seed`` (a pair of ints): TensorFlow's numbers for
    that seed. ``shape`` must end with ``lam``'s shape. No gradient flows (as in TF).

    Example:
        >>> import companion as tf
        >>> print(tf.random.stateless_poisson([4], seed=[1, 2], lam=3.0))
        companion.Tensor([5 5 4 6], shape=(4,), dtype=int32)
    """
    what = "random.stateless_poisson"
    dtype = _dtype(dtype, _NUMBERS, what, "dtype")
    lam = as_input(lam)
    _dtype(lam.dtype, _NUMBERS, what, "lam's dtype")
    shape = _ending_with(static_shape(shape, what), tuple(lam.shape), what)
    seed = _seed(seed, what)
    return _philox_rejection.stateless_poisson(seed, lam, shape=shape, dtype=dtype._np)


def stateless_binomial(shape, seed, counts, probs, output_dtype=_dtypes.int32, name=None):
    """Binomial(``counts``, ``probs``) samples, a function of ``seed`` (a pair of ints):
    TensorFlow's numbers for that seed. ``shape`` must end with the broadcast shape of ``counts``
    and ``probs``. No gradient flows (as in TF).

    Example:
        >>> import companion as tf
        >>> print(tf.random.stateless_binomial([4], seed=[1, 2], counts=10, probs=0.3))
        companion.Tensor([5 5 5 4], shape=(4,), dtype=int32)
    """
    what = "random.stateless_binomial"
    dtype = _dtype(output_dtype, _NUMBERS, what, "output_dtype")
    probs = as_input(probs, None if _is_tensor(probs) else _dtypes.float32)
    _dtype(probs.dtype, _FLOATS, what, "probs' dtype")
    counts = as_input(counts, probs.dtype)
    batch = _broadcast(counts, probs, what, "counts", "probs")
    shape = _ending_with(static_shape(shape, what), batch, what)
    counts, probs = _broadcast_to(counts, batch), _broadcast_to(probs, batch)
    return _philox_binomial.stateless_binomial(_seed(seed, what), counts, probs, shape=shape,
                                              dtype=dtype._np)


def _is_tensor(value):
    return hasattr(value, "dtype") and hasattr(value, "shape")


def _dtype(dtype, allowed, what, argument):
    dtype = _dtypes.as_dtype(dtype)
    if dtype.name not in allowed:
        raise InvalidArgumentError(f"{what}: {argument} must be one of {', '.join(allowed)}. Received: "
                                   f"{argument}={dtype.name}")
    return dtype


def _seed(seed, what):
    seed = as_input(seed)
    if not seed.dtype.is_integer:
        raise InvalidArgumentError(f"{what}: seed must hold int32 or int64 values. Received dtype "
                                   f"{seed.dtype.name}: {seed!s}. Pass e.g. seed=[1, 2].")
    if tuple(seed.shape) != (2,):
        raise InvalidArgumentError(f"{what}: seed must have shape [2], not {list(seed.shape)}. Received: "
                                   f"{seed!s}. Pass a pair of ints, e.g. seed=[1, 2].")
    return seed


def _broadcast(first, second, what, first_name, second_name):
    try:
        return tuple(int(d) for d in np.broadcast_shapes(tuple(first.shape), tuple(second.shape)))
    except ValueError:
        raise InvalidArgumentError(f"{what}: {first_name} (shape {list(first.shape)}) and {second_name} "
                                   f"(shape {list(second.shape)}) must broadcast to one shape.") from None


def _ending_with(shape, batch, what):
    if len(shape) < len(batch) or shape[len(shape) - len(batch):] != batch:
        raise InvalidArgumentError(f"{what}: shape passed in must end with the parameters' broadcast shape "
                                   f"{list(batch)}. Received: shape={list(shape)}. Use e.g. shape="
                                   f"{[10] + list(batch)} for 10 draws per parameter.")
    if batch and int(np.prod(batch)) == 0 and int(np.prod(shape)) != 0:
        raise InvalidArgumentError(f"{what}: the parameters have no elements. Received parameter shape "
                                   f"{list(batch)}")
    return shape


def _broadcast_to(tensor, batch):
    return tensor if tuple(tensor.shape) == batch else broadcast_to(tensor, batch)

