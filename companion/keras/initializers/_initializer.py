"""`Initializer` base and the simple ones: Zeros, Ones, Constant, RandomNormal/Uniform, TruncatedNormal."""

from companion import random as _random_ops  # (its public stateful and stateless ops)
from companion._core import _dtypes
from companion._core._convert import constant
from companion._ops import _creation
from companion.keras.random._seed_generator import keras_default_seed
from companion.random._ops import stream_normal, stream_truncated_normal, stream_uniform


class Initializer:
    """Base class: ``initializer(shape, dtype=None)`` returns a new Tensor of that shape.

    Subclasses implement ``__call__`` and ``get_config``; ``from_config(config)`` rebuilds one.
    """

    def __call__(self, shape, dtype=None, **kwargs):
        raise NotImplementedError(f"{type(self).__name__} must implement __call__(shape, dtype).")

    def get_config(self):
        return {}

    @classmethod
    def from_config(cls, config):
        return cls(**config)


class Zeros(Initializer):
    """All zeros.

    Example:
        >>> import companion as tf
        >>> tf.keras.initializers.Zeros()((2,)).numpy()
        array([0., 0.], dtype=float32)
    """

    def __call__(self, shape, dtype=None, **kwargs):
        return _creation.zeros(shape, dtype=_float(dtype, allow_int=True))


class Ones(Initializer):
    """All ones."""

    def __call__(self, shape, dtype=None, **kwargs):
        return _creation.ones(shape, dtype=_float(dtype, allow_int=True))


class Constant(Initializer):
    """Every element equal to the scalar ``value``."""

    def __init__(self, value=0):
        self.value = value

    def __call__(self, shape, dtype=None, **kwargs):
        return _creation.fill(shape, constant(self.value, dtype=_float(dtype, allow_int=True)))

    def get_config(self):
        return {"value": self.value}


class RandomNormal(Initializer):
    """Samples of ``N(mean, stddev**2)``; a ``seed`` makes every call return the same values."""

    def __init__(self, mean=0.0, stddev=0.05, seed=None):
        self.mean, self.stddev = mean, stddev
        self.seed, self._init_seed = keras_default_seed(seed), seed

    def __call__(self, shape, dtype=None, **kwargs):
        return normal(shape, self.mean, self.stddev, _float(dtype), self.seed)

    def get_config(self):
        return {"seed": self._init_seed, "mean": self.mean, "stddev": self.stddev}


class TruncatedNormal(RandomNormal):
    """Normal samples redrawn when more than two ``stddev`` from ``mean``."""

    def __call__(self, shape, dtype=None, **kwargs):
        return truncated_normal(shape, self.mean, self.stddev, _float(dtype), self.seed)


class RandomUniform(Initializer):
    """Samples uniform in ``[minval, maxval)``."""

    def __init__(self, minval=-0.05, maxval=0.05, seed=None):
        self.minval, self.maxval = minval, maxval
        self.seed, self._init_seed = keras_default_seed(seed), seed

    def __call__(self, shape, dtype=None, **kwargs):
        return uniform(shape, self.minval, self.maxval, _float(dtype), self.seed)

    def get_config(self):
        return {"seed": self._init_seed, "minval": self.minval, "maxval": self.maxval}


# -- sampling shared with the variance-scaling initializers -----------------------------

def normal(shape, mean, stddev, dtype, seed):
    """Normal samples: from the seed alone when seeded, else from the unseeded random stream."""
    if seed is None:
        return stream_normal(shape, mean, stddev, dtype)
    return _random_ops.stateless_normal(shape, [seed, 0], mean, stddev, dtype)


def truncated_normal(shape, mean, stddev, dtype, seed):
    """Truncated normal samples (see `normal` for the seed rule)."""
    if seed is None:
        return stream_truncated_normal(shape, mean, stddev, dtype)
    return _random_ops.stateless_truncated_normal(shape, [seed, 0], mean, stddev, dtype)


def uniform(shape, minval, maxval, dtype, seed):
    """Uniform samples (see `normal` for the seed rule)."""
    if seed is None:
        return stream_uniform(shape, minval, maxval, dtype)
    return _random_ops.stateless_uniform(shape, [seed, 0], minval, maxval, dtype)


def _float(dtype, allow_int=False):
    dtype = _dtypes.float32 if dtype is None else _dtypes.as_dtype(dtype)
    if not (dtype.is_floating or (allow_int and (dtype.is_integer or dtype.is_bool))):
        raise ValueError(f"This initializer needs a floating dtype. Received: dtype={dtype.name}")
    return dtype
