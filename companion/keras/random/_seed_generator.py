"""Keras 3's seeds: `SeedGenerator` (a ``[seed, counter]`` state stepped once per draw), the default
seeds Keras takes from Python's `random`, and `draw_seed` (a seed pair for TF's stateless ops).

TensorFlow's Keras draws every random number from stateless ops with such seeds; with
companion's stateless ops giving TF's numbers, the same seed gives the same numbers. An object
that Keras seeds from Python's `random` when given no seed (initializers, dropout and noise
layers) follows Keras's rule after `keras.utils.set_random_seed`; before it, companion keeps its
own random stream (so `tf.random.set_seed` alone also makes Keras code reproducible).
"""

import random as _python_random

import numpy as np

from companion._core import _dtypes
from companion._core._convert import as_input, constant
from companion._core._variable import Variable
from companion._ops._math import cast, floormod

_KERAS_SEEDING = {"active": False, "global": None}


def follow_keras_seeding():
    """Called by `keras.utils.set_random_seed`: default seeds now come from Python's `random`."""
    _KERAS_SEEDING["active"] = True
    _KERAS_SEEDING["global"] = None


def stop_following_keras_seeding():
    """Back to companion's random stream for unseeded Keras objects (used between tests)."""
    _KERAS_SEEDING["active"] = False
    _KERAS_SEEDING["global"] = None


def make_default_seed():
    """Keras's default seed: ``random.randint(1, 10**9)`` from Python's generator."""
    return _python_random.randint(1, int(1e9))


def keras_default_seed(seed):
    """``seed``, or when it is None and Keras's seeding is followed, a Keras default seed (else None)."""
    if seed is None and _KERAS_SEEDING["active"]:
        return make_default_seed()
    return seed


class SeedGenerator:
    """The state of a random stream: ``[seed, counter]``, int64; each `next` returns the state and
    steps the counter (Keras 3's ``keras.random.SeedGenerator``).

    Example:
        >>> import companion as tf
        >>> gen = tf.keras.random.SeedGenerator(7)
        >>> gen.next().numpy().tolist(), gen.next().numpy().tolist()
        ([7, 0], [7, 1])
    """

    def __init__(self, seed=None, name=None, **kwargs):
        if kwargs:
            raise ValueError(f"Unrecognized keyword arguments: {kwargs}")
        self._initial_seed = seed
        if seed is None:
            seed = make_default_seed()
        if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)):
            raise ValueError(f"Argument `seed` must be an integer. Received: seed={seed!r}")
        self.name = name or "seed_generator"
        self.state = Variable(np.asarray([int(seed), 0], np.int64), trainable=False,
                              name="seed_generator_state")

    def next(self, ordered=True):
        """The current ``[seed, counter]`` (a copy); the state moves on (ordered: counter + 1)."""
        current = self.state + constant(np.zeros(2, np.int64))
        if ordered:
            self.state.assign_add(constant(np.asarray([0, 1], np.int64)))
        else:  # Keras: near-unique numbers below a million
            self.state.assign(floormod((self.state + 1) * 5387, 933199))
        return current

    def get_config(self):
        return {"seed": self._initial_seed, "name": self.name}

    @classmethod
    def from_config(cls, config):
        return cls(**config)


def layer_seed_generator(seed, enabled=True):
    """The `SeedGenerator` a Keras 3 random layer owns: for a given seed, and for no seed once Keras's
    seeding is followed (a default seed drawn when the layer is made, as Keras draws it). None when
    the layer draws from companion's random stream instead (no seed, `tf.random.set_seed` rules)."""
    if not enabled or (seed is None and not _KERAS_SEEDING["active"]):
        return None
    return SeedGenerator(seed)


def global_seed_generator():
    """The generator behind ``seed=None`` draws (created on first use)."""
    if _KERAS_SEEDING["global"] is None:
        _KERAS_SEEDING["global"] = SeedGenerator()
    return _KERAS_SEEDING["global"]


def draw_seed(seed):
    """A seed pair for the stateless ops (int32, as Keras's TF backend casts it): a generator's next
    state, ``[seed, 0]`` for an int, the global generator's next state for None."""
    if isinstance(seed, SeedGenerator):
        pair = seed.next()
    elif isinstance(seed, (int, np.integer)) and not isinstance(seed, bool):
        pair = constant(np.asarray([int(seed), 0], np.int64))
    elif seed is None:
        pair = global_seed_generator().next(ordered=False)
    else:
        raise ValueError(f"Argument `seed` must be either an integer or an instance of `SeedGenerator`. "
                         f"Received: seed={seed!r} (of type {type(seed)})")
    pair = as_input(pair)
    if pair.dtype == _dtypes.int32:
        return pair
    return cast(floormod(pair, 2147483646), _dtypes.int32)  # Keras: int32 seeds for XLA
