"""`Generator`: an explicit random number generator whose key lives in a Variable."""

import os

import numpy as np

from companion._core import _dtypes
from companion._core._convert import as_input
from companion._core._variable import Variable
from companion._ops._array import stack
from companion._ops._random import (
    check_seed,
    global_generator,
    global_generator_start,
    install_global_generator,
)
from companion.random import _philox
from companion.random._sampling import FLOATS, INTS, dtype_in, int_bounds, static_shape


class Generator:
    """A random number generator with its own state, TensorFlow's ``tf.random.Generator``.

    The state is TensorFlow's Philox state, a non-trainable ``int64[3]`` `Variable`: a 128-bit
    counter (elements 0 and 1) and a key (element 2). Each draw reads TF's Philox blocks from the
    counter and moves it on by 256 per output, so a generator made by ``from_seed(s)`` or
    ``from_state(...)`` produces TensorFlow's numbers, eagerly and inside ``companion.function``.
    ``alg`` accepts ``"philox"`` (TF's default; ``1``); threefry generators are not available.

    Example:
        >>> import companion as tf
        >>> g = tf.random.Generator.from_seed(5)
        >>> print(g.uniform([2]))
        companion.Tensor([0.567016  0.2077086], shape=(2,), dtype=float32)
        >>> g.state.numpy().tolist()
        [517, 0, 0]
    """

    def __init__(self, copy_from=None, state=None, alg=None):
        if (copy_from is None) == (state is None):
            raise ValueError("Generator needs exactly one of copy_from= or state=. Received: "
                             f"copy_from={copy_from!r}, state={state!r}. Use Generator.from_seed(seed) "
                             "or Generator.from_non_deterministic_state() to create one.")
        _check_alg(alg if copy_from is None else None)
        start = np.asarray(copy_from._state.numpy()) if copy_from is not None else _checked_state(state)
        self._state = Variable(start, trainable=False, name="generator_state", _is_rng_state=True)

    @classmethod
    def from_seed(cls, seed, alg=None):
        """A generator determined by the integer ``seed``: TF's state ``[seed, 0, 0]`` (a seed wider
        than 64 bits fills the next words)."""
        return cls(state=_state_of_seed(check_seed(seed, "seed")), alg=alg)

    @classmethod
    def from_non_deterministic_state(cls, alg=None):
        """A generator seeded from ``os.urandom``: different in every run."""
        return cls(state=np.frombuffer(os.urandom(24), np.int64).copy(), alg=alg)

    @classmethod
    def from_state(cls, state, alg=None):
        """A generator starting from ``state`` (an ``int64[3]`` Philox state, e.g. another's)."""
        return cls(state=state, alg=alg)

    @property
    def state(self):
        """The Variable holding the Philox state."""
        return self._state

    @property
    def algorithm(self):
        """TF's number for Philox (1)."""
        return 1

    def reset(self, state):
        """Sets the state to ``state`` (an ``int64[3]`` Philox state)."""
        self._state.assign(_checked_state(state))

    def reset_to_global_start(self):
        """Restarts the global generator from the global seed (`companion.random.set_seed`)."""
        self.reset(_global_start_state())

    def reset_from_seed(self, seed):
        """Restarts the generator as `from_seed` would."""
        self.reset(_state_of_seed(check_seed(seed, "seed")))

    # -- drawing --------------------------------------------------------------------------
    def _draw(self, kind, shape, first, second, dtype, what, allowed):
        dtype = dtype_in(dtype, allowed, what, "a supported dtype")
        shape = static_shape(shape, what)
        if kind == "uniform_int":
            first, second = int_bounds(first, second, dtype, what)
        elif kind != "full_int":
            first, second = as_input(first, dtype), as_input(second, dtype)
        else:
            first = second = as_input(0, dtype)
        samples, state = _philox.generator_draw(self._state, first, second, kind=kind, shape=shape,
                                                dtype=dtype._np)
        self._state.assign(state)
        return samples

    def normal(self, shape, mean=0.0, stddev=1.0, dtype=_dtypes.float32, name=None):
        """Normal samples ``mean + stddev * N(0, 1)``."""
        return self._draw("normal", shape, mean, stddev, dtype, "Generator.normal", FLOATS)

    def uniform(self, shape, minval=0, maxval=None, dtype=_dtypes.float32, name=None):
        """Uniform samples in ``[minval, maxval)`` (integer dtypes need ``maxval``)."""
        dtype = _dtypes.as_dtype(dtype)
        if dtype.is_integer:
            return self._draw("uniform_int", shape, minval, maxval, dtype, "Generator.uniform", INTS)
        return self._draw("uniform", shape, minval, 1.0 if maxval is None else maxval, dtype,
                          "Generator.uniform", FLOATS)

    def uniform_full_int(self, shape, dtype=_dtypes.uint64, name=None):
        """Integers over the dtype's whole range."""
        return self._draw("full_int", shape, None, None, dtype, "Generator.uniform_full_int", INTS)

    def truncated_normal(self, shape, mean=0.0, stddev=1.0, dtype=_dtypes.float32, name=None):
        """Normal samples within two standard deviations of ``mean``."""
        return self._draw("truncated", shape, mean, stddev, dtype, "Generator.truncated_normal", FLOATS)

    def make_seeds(self, count=1):
        """An int64 tensor of shape ``[2, count]``: ``count`` seeds for the stateless ops (TF's rule:
        full-range int64 draws over a row of zeros).

        Example:
            >>> import companion as tf
            >>> tf.random.Generator.from_seed(1).make_seeds(3).shape
            TensorShape([2, 3])
        """
        count = static_shape([count], "Generator.make_seeds count")[0]
        keys = self.uniform_full_int([count], dtype=_dtypes.int64)
        return stack([keys, keys * 0])

    def split(self, count=1):
        """``count`` new generators, each with key from one full-range int64 draw (TF's rule); this
        generator advances.

        Example:
            >>> import companion as tf
            >>> a, b = tf.random.Generator.from_seed(0).split(2)
            >>> bool((a.normal([4]).numpy() != b.normal([4]).numpy()).all())
            True
        """
        count = static_shape([count], "Generator.split count")[0]
        keys = self.uniform_full_int([count], dtype=_dtypes.int64).numpy()
        return [Generator(state=np.asarray([0, 0, key], np.int64)) for key in keys]

    def _next_key(self):
        """A raw JAX threefry key drawn from this generator (for companion's own sampling code)."""
        words = self.uniform_full_int([2], dtype=_dtypes.uint32)
        return words._value

    def __repr__(self):
        return f"<companion.random.Generator state={np.asarray(self._state.numpy()).tolist()}>"


def get_global_generator():
    """The global `Generator`, created on first use.

    It starts from the global seed when `set_seed` was called (and `set_seed` restarts
    it), otherwise from a non-deterministic state.
    """
    if global_generator() is None:
        install_global_generator(Generator(state=_global_start_state()), default=True)
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
    array = np.asarray(state.numpy() if hasattr(state, "numpy") else state)
    if array.shape != (3,) or array.dtype.kind not in "iu":
        raise ValueError(f"A Generator state must be TensorFlow's Philox state, 3 integers (int64[3]). "
                         f"Received shape {array.shape}, dtype {array.dtype}. Pass another generator's "
                         "state, or use Generator.from_seed(seed).")
    return array.astype(np.uint64).astype(np.int64)


def _global_start_state():
    """The global generator's first Philox state: its key from the global seed (else entropy)."""
    start = np.asarray(global_generator_start(), np.uint64)  # two 32-bit words
    return np.asarray([0, 0, start[0] | (start[1] << np.uint64(32))], np.uint64).astype(np.int64)


def _state_of_seed(seed):
    """TF's `_make_1d_state`: the (Python, unbounded) integer cut into three 64-bit words."""
    seed = int(seed) % (1 << 192)
    words = [(seed >> (64 * i)) & 0xFFFFFFFFFFFFFFFF for i in range(3)]
    return np.asarray(words, np.uint64).astype(np.int64)


def _check_alg(alg):
    name = getattr(alg, "name", alg)
    if alg is not None and str(name).lower() not in ("philox", "1", "auto_select", "3"):
        raise NotImplementedError(f"Generator(alg={alg!r}): companion's generators use Philox (TF's "
                                  "default); threefry generators are not available.")
