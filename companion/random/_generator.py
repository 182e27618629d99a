"""`Generator`: an explicit random number generator whose key lives in a Variable."""

import os

import jax
import jax.numpy as jnp
import numpy as np

from companion._core import _dtypes
from companion._core._deferred import resolve
from companion._core._op import op
from companion._core._tensor import Tensor
from companion._core._variable import Variable
from companion._ops._random import (
    FROM_SEED_TAG,
    check_seed,
    derive_key,
    global_generator,
    global_generator_start,
    install_global_generator,
    split_key,
    stored_key,
)
from companion.random._sampling import sample_normal, sample_truncated_normal, sample_uniform, static_shape


class Generator:
    """A random number generator with its own state, TensorFlow's ``tf.random.Generator``.

    The state is a non-trainable `Variable` holding a raw JAX threefry key
    (``uint32[2]``; TensorFlow's Philox state is ``int64[3]``). Every draw splits the
    key and writes the new one back, so a generator used inside ``companion.function``
    advances on every call. The ``alg`` arguments are accepted for TensorFlow
    compatibility and ignored: companion always uses threefry.

    Example:
        >>> import companion as tf
        >>> g1 = tf.random.Generator.from_seed(1)
        >>> g2 = tf.random.Generator.from_seed(1)
        >>> bool((g1.normal([3]).numpy() == g2.normal([3]).numpy()).all())
        True
    """

    def __init__(self, copy_from=None, state=None, alg=None):
        if (copy_from is None) == (state is None):
            raise ValueError("Generator needs exactly one of copy_from= or state=. Received: "
                             f"copy_from={copy_from!r}, state={state!r}. Use Generator.from_seed(seed) "
                             "or Generator.from_non_deterministic_state() to create one.")
        start = copy_from._state._value if copy_from is not None else _checked_state(state)
        self._state = Variable(start, trainable=False, name="generator_state", _is_rng_state=True)

    @classmethod
    def from_seed(cls, seed, alg=None):
        """A generator determined by the integer ``seed`` (the same in every process)."""
        return cls(state=derive_key(FROM_SEED_TAG, check_seed(seed, "seed")))

    @classmethod
    def from_non_deterministic_state(cls, alg=None):
        """A generator seeded from ``os.urandom``: different in every run."""
        return cls(state=derive_key(FROM_SEED_TAG, int.from_bytes(os.urandom(8), "little")))

    @classmethod
    def from_state(cls, state, alg=None):
        """A generator starting from ``state`` (a ``uint32[2]`` key, e.g. another's ``state``)."""
        return cls(state=state)

    @property
    def state(self):
        """The Variable holding the current key."""
        return self._state

    def reset(self, state):
        """Sets the state to ``state`` (a ``uint32[2]`` key)."""
        self._state._set_value(jnp.asarray(_checked_state(state)))

    def reset_from_seed(self, seed):
        """Restarts the generator as `from_seed` would."""
        self.reset(derive_key(FROM_SEED_TAG, check_seed(seed, "seed")))

    # -- drawing --------------------------------------------------------------------------
    def normal(self, shape, mean=0.0, stddev=1.0, dtype=_dtypes.float32, name=None):
        """Normal samples, as `companion.random.normal`."""
        return sample_normal(self._next_key, shape, mean, stddev, dtype, "Generator.normal")

    def uniform(self, shape, minval=0, maxval=None, dtype=_dtypes.float32, name=None):
        """Uniform samples in ``[minval, maxval)``, as `companion.random.uniform`."""
        return sample_uniform(self._next_key, shape, minval, maxval, dtype, "Generator.uniform")

    def truncated_normal(self, shape, mean=0.0, stddev=1.0, dtype=_dtypes.float32, name=None):
        """Normal samples within two standard deviations, as `companion.random.truncated_normal`."""
        return sample_truncated_normal(self._next_key, shape, mean, stddev, dtype,
                                       "Generator.truncated_normal")

    def make_seeds(self, count=1):
        """An int64 tensor of shape ``[2, count]``: ``count`` seeds for the stateless ops."""
        count = static_shape([count], "Generator.make_seeds count")[0]
        return _seed_pairs(Tensor(self._next_key()), count=count)

    def split(self, count=1):
        """``count`` new independent generators; this generator advances.

        Example:
            >>> import companion as tf
            >>> a, b = tf.random.Generator.from_seed(0).split(2)
            >>> bool((a.normal([4]).numpy() != b.normal([4]).numpy()).all())
            True
        """
        count = static_shape([count], "Generator.split count")[0]
        keys = jax.random.split(resolve(self._next_key()), count)
        return [Generator(state=keys[i]) for i in range(count)]

    def _next_key(self):
        new_state, key = split_key(stored_key(self._state))
        self._state._set_value(new_state)
        return key

    def __repr__(self):
        return f"<companion.random.Generator state={np.asarray(self._state._value).tolist()}>"


def get_global_generator():
    """The global `Generator`, created on first use.

    It starts from the global seed when `set_seed` was called (and `set_seed` restarts
    it), otherwise from a non-deterministic state.
    """
    if global_generator() is None:
        install_global_generator(Generator(state=global_generator_start()), default=True)
    return global_generator()


def set_global_generator(generator):
    """Replaces the global `Generator` (`set_seed` then leaves it alone).

    Functions already compiled by ``companion.function`` keep the generator they traced with.
    """
    if not isinstance(generator, Generator):
        raise TypeError("set_global_generator expects a companion.random.Generator. Received: "
                        f"{generator!r} of type {type(generator).__name__}.")
    install_global_generator(generator, default=False)


def _checked_state(state):
    array = np.asarray(state._value if hasattr(state, "_value") else state)
    if array.shape != (2,) or array.dtype.kind not in "iu":
        raise ValueError(f"A Generator state must be a key of 2 integers (uint32[2]). Received shape "
                         f"{array.shape}, dtype {array.dtype}. Pass another generator's state, or use "
                         "Generator.from_seed(seed).")
    return array.astype(np.uint32)


@op("random_seed_pairs", static=("count",))
def _seed_pairs(key, count):
    bits = jax.random.bits(key, (2, count), jnp.uint64)
    return (bits >> 1).astype(jnp.int64)
