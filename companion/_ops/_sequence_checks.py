"""Whole-tensor checks and summaries of ``tf.math``: `is_non_decreasing`, `is_strictly_increasing`,
`zero_fraction`, and `invert_permutation`."""

import jax.numpy as jnp

from companion._core._convert import as_input
from companion._core._errors import InvalidArgumentError, InvalidArgumentTypeError
from companion._core._op import op

__all__ = ["invert_permutation", "is_non_decreasing", "is_strictly_increasing", "zero_fraction"]


@op("is_non_decreasing", static=("strict",))
def _ordered(x, strict):
    flat = jnp.ravel(x)
    steps = flat[1:] > flat[:-1] if strict else flat[1:] >= flat[:-1]
    return jnp.all(steps)


def _numeric(x, what):
    x = as_input(x)
    if not x.dtype.is_numeric or x.dtype.is_complex:
        raise InvalidArgumentTypeError(f"{what} needs a real numeric tensor. Received dtype "
                                       f"{x.dtype.name}: {x!s}.")
    return x


def is_non_decreasing(x, name=None):
    """True when each element of the flattened ``x`` is >= the one before (True for 0 or 1 element).

    Example:
        >>> import companion as tf
        >>> bool(tf.math.is_non_decreasing([1, 1, 2]))
        True
    """
    return _ordered(_numeric(x, "is_non_decreasing"), strict=False)


def is_strictly_increasing(x, name=None):
    """True when each element of the flattened ``x`` is > the one before (True for 0 or 1 element)."""
    return _ordered(_numeric(x, "is_strictly_increasing"), strict=True)


@op("zero_fraction")
def _zero_fraction(x):
    if x.size == 0:
        return jnp.asarray(jnp.nan, jnp.float32)
    return jnp.mean((x == 0).astype(jnp.float32))


def zero_fraction(value, name=None):
    """The fraction of ``value``'s elements that are 0, as float32 (a sparsity summary).

    Example:
        >>> import companion as tf
        >>> float(tf.math.zero_fraction([0.0, 1.0, 0.0, 3.0]))
        0.5
    """
    return _zero_fraction(as_input(value))


@op("invert_permutation")
def _invert_permutation(x):
    return jnp.zeros_like(x).at[x].set(jnp.arange(x.shape[0], dtype=x.dtype))


def invert_permutation(x, name=None):
    """The inverse of the permutation ``x`` (a 1-D int32/int64 tensor of 0..n-1): ``y[x[i]] = i``.

    Raises:
        InvalidArgumentError: eagerly, when ``x`` is not a permutation of 0..n-1.
    """
    x = as_input(x)
    if x.ndim != 1 or x.dtype.name not in ("int32", "int64"):
        raise InvalidArgumentError(f"invert_permutation needs a 1-D int32 or int64 tensor. Received "
                                   f"shape {list(x.shape)} and dtype {x.dtype.name}.")
    if not x.is_traced:
        values = sorted(int(v) for v in x.numpy())
        if values != list(range(len(values))):
            raise InvalidArgumentError(f"invert_permutation: x must hold each of 0..{len(values) - 1} "
                                       f"exactly once. Received {x.numpy().tolist()}.")
    return _invert_permutation(x)
