"""TF's dataset seeds: the pair a random dataset takes when made, and each iteration's seeds from it.

A random dataset (`shuffle`, `Dataset.random`) takes ``random_seed.get_seed``'s pair (global seed,
op seed) when it is made (TF eager's op-seed sequence when only a global seed is set;
nondeterministic seeds when neither is). Each iteration (epoch; ``repeat`` runs one per pass) gets
its iterator seeds from the dataset's seed generator, as TF's ``SeedGenerator::GenerateSeeds``:
when it re-randomizes each iteration, the next two words of ``PhiloxRandom(seed, seed2)``, else the
pair itself. The iterator then draws from ``PhiloxRandom(iterator seeds)``.
"""

import itertools
import threading

import numpy as np

from companion._core._context import state
from companion._ops import _random
from companion.random._philox import host_words

_MAXINT32 = 2**31 - 1


def dataset_seeds(seed):
    """The (seed, seed2) pair TF's dataset kernels get: ``random_seed.get_seed``'s (taking the next op
    seed of TF eager's sequence when only a global seed is set); when neither seed is set TF draws
    random seeds, here the next key of companion's unseeded stream (reproducible after ``set_seed``)."""
    if not state.staging:
        seeds = _random.tf_eager_seeds(seed)
    elif seed is not None:  # a dataset made while tracing: TF's graph seeds, as far as they are known
        global_seed = _random.global_seed_or(_random.DEFAULT_GLOBAL_SEED)
        seeds = (global_seed % _MAXINT32, _random.check_seed(seed, "seed") % _MAXINT32)
        seeds = (0, _MAXINT32) if seeds == (0, 0) else seeds
    else:
        seeds = None
    if seeds is None:
        first, second = _random.next_host_key(None).tolist()
        return int(first), int(second)
    return seeds


class SeedGenerator:
    """A dataset's seeds and the iterator seeds each new iteration takes from them."""

    def __init__(self, seed, rerandomize):
        self.seeds = dataset_seeds(seed)
        self._rerandomize = rerandomize
        self._iterations = itertools.count()
        self._lock = threading.Lock()

    def next_iterator_seeds(self):
        """The seeds of the iteration starting now (TF: when its iterator is made)."""
        if not self._rerandomize:
            return self.seeds
        with self._lock:
            iteration = next(self._iterations)
        first, second = host_words(*self.seeds, 2 * iteration, 2).tolist()
        return first, second


class PhiloxWords:
    """An iterator's Philox stream, drawn from in bulk."""

    def __init__(self, seeds):
        self._seeds = seeds
        self._used = 0

    def take(self, count):
        words = host_words(*self._seeds, self._used, count)
        self._used += count
        return words.astype(np.int64)

    def one_by_one(self):
        for size in itertools.chain((64, 256, 1024), itertools.repeat(4096)):
            yield from self.take(size).tolist()
