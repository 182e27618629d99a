"""Backend random tensors and Variables: uniform, normal, truncated normal, Bernoulli.

Without a ``seed``, each function draws one from NumPy's global generator (as Keras's legacy
backend does), so ``np.random.seed`` makes the results repeatable.
"""

import numpy as np

from companion import ones as _ones
from companion import random as _random
from companion import where as _where
from companion import zeros as _zeros
from companion.keras.backend._config import floatx
from companion.keras.backend._variables import variable


def _seed(seed, high=10e6):
    return np.random.randint(high) if seed is None else seed


def random_uniform(shape, minval=0.0, maxval=1.0, dtype=None, seed=None):
    """A tensor of ``shape`` drawn uniformly from ``[minval, maxval)``.

    Example:
        >>> import companion as tf
        >>> x = tf.keras.backend.random_uniform((1000,), 2.0, 3.0, seed=1).numpy()
        >>> bool(x.min() >= 2.0 and x.max() < 3.0), x.dtype
        (True, dtype('float32'))
    """
    return _random.uniform(shape, minval=minval, maxval=maxval, dtype=dtype or floatx(), seed=_seed(seed))


def random_normal(shape, mean=0.0, stddev=1.0, dtype=None, seed=None):
    """A tensor of ``shape`` drawn from a normal distribution.

    Example:
        >>> import companion as tf
        >>> x = tf.keras.backend.random_normal((20000,), mean=3.0, stddev=0.5, seed=1).numpy()
        >>> round(float(x.mean()), 1), round(float(x.std()), 1)
        (3.0, 0.5)
    """
    return _random.normal(shape, mean=mean, stddev=stddev, dtype=dtype or floatx(), seed=_seed(seed))


def truncated_normal(shape, mean=0.0, stddev=1.0, dtype=None, seed=None):
    """A tensor of ``shape`` drawn from a normal distribution, redrawn beyond two ``stddev`` of ``mean``.

    Example:
        >>> import companion as tf
        >>> x = tf.keras.backend.truncated_normal((1000,), stddev=2.0, seed=1).numpy()
        >>> bool(abs(x).max() <= 4.0)
        True
    """
    return _random.truncated_normal(shape, mean, stddev, dtype=dtype or floatx(), seed=_seed(seed))


def random_bernoulli(shape, p=0.0, dtype=None, seed=None):
    """A tensor of ``shape`` holding 1 with probability ``p`` and 0 otherwise.

    Example:
        >>> import companion as tf
        >>> x = tf.keras.backend.random_bernoulli((1000,), p=1.0, seed=1).numpy()
        >>> sorted(set(x.tolist()))
        [1.0]
    """
    dtype = dtype or floatx()
    draw = _random.uniform(shape, dtype=dtype, seed=_seed(seed))
    return _where(draw <= p, _ones(shape, dtype=dtype), _zeros(shape, dtype=dtype))


def random_uniform_variable(shape, low, high, dtype=None, name=None, seed=None):
    """A Variable of ``shape`` drawn uniformly from ``[low, high)``.

    Example:
        >>> import companion as tf
        >>> v = tf.keras.backend.random_uniform_variable((2, 3), 0.0, 1.0, seed=1)
        >>> isinstance(v, tf.Variable), v.shape
        (True, TensorShape([2, 3]))
    """
    dtype = dtype or floatx()
    value = _random.uniform(shape, minval=low, maxval=high, dtype=dtype, seed=_seed(seed, 10e8))
    return variable(value, dtype=dtype, name=name)


def random_normal_variable(shape, mean, scale, dtype=None, name=None, seed=None):
    """A Variable of ``shape`` drawn from a normal distribution of ``mean`` and standard deviation ``scale``.

    Example:
        >>> import companion as tf
        >>> v = tf.keras.backend.random_normal_variable((2, 3), 0.0, 1.0, seed=1)
        >>> isinstance(v, tf.Variable), v.dtype
        (True, companion.float32)
    """
    dtype = dtype or floatx()
    value = _random.normal(shape, mean=mean, stddev=scale, dtype=dtype, seed=_seed(seed, 10e8))
    return variable(value, dtype=dtype, name=name)
