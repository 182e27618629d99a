"""`shuffle`: tf.data's buffered shuffle, on elements or (fused) on index arrays.

The buffer holds ``buffer_size`` elements; each output is a uniformly chosen buffer slot,
refilled with the next input element; at the end the buffer drains in random order. With
a buffer at least as large as the input this is a uniform permutation. Over in-memory data
the same algorithm runs vectorised on indices (`shuffle_indices`), so no element is touched.

Seeds follow `companion.random`'s rules: the op seed and the global seed fix a key when the
dataset is built (two datasets with the same op seed shuffle alike, as in tf.data); each
iteration (epoch) derives its own generator from that key and an epoch counter, so
``reshuffle_each_iteration=True`` gives a new order every epoch and the same program
repeats its orders.
"""

import itertools
import threading

import numpy as np

from companion._core._errors import InvalidArgumentError
from companion._ops import _random
from companion._ops._random import consume_tf_op_seed
from companion.data._node import IndexPlan, Node, wrap


class ShuffleMethods:
    """`Dataset.shuffle`."""

    def shuffle(self, buffer_size, seed=None, reshuffle_each_iteration=True, name=None):
        """Randomly shuffles elements with a buffer of ``buffer_size`` elements.

        A buffer at least as large as the dataset gives a uniform shuffle; a smaller one only
        mixes nearby elements (and uses less memory).

        Args:
            buffer_size: the number of elements held in the buffer (>= 1).
            seed: the op seed (see `companion.random.set_seed`).
            reshuffle_each_iteration: a new order on every iteration/epoch (default), or the
                same order each time.
            name: accepted for TensorFlow compatibility; unused.

        Example:
            >>> import companion as tf
            >>> ds = tf.data.Dataset.range(10).shuffle(10, seed=1)
            >>> sorted(int(x) for x in ds)
            [0, 1, 2, 3, 4, 5, 6, 7, 8, 9]
            >>> fixed = tf.data.Dataset.range(5).shuffle(5, reshuffle_each_iteration=False)
            >>> [int(x) for x in fixed] == [int(x) for x in fixed]
            True
        """
        size = _buffer_size(buffer_size)
        consume_tf_op_seed(seed)  # TF's shuffle takes its seeds when made: later ops' seeds follow
        return wrap(ShuffleNode(self._node, size, seed, bool(reshuffle_each_iteration)))


class ShuffleNode(Node):
    kind = "_ShuffleDataset"

    def __init__(self, node, buffer_size, seed, reshuffle):
        super().__init__(node)
        self._buffer_size = buffer_size
        self._key = _dataset_key(seed)
        self._reshuffle = reshuffle
        self._epochs = itertools.count()
        self._lock = threading.Lock()

    def _generator(self):
        with self._lock:
            epoch = next(self._epochs) if self._reshuffle else 0
        return np.random.default_rng([*self._key, epoch])

    def plannable(self):
        return self.inputs[0].plannable()

    def index_plan(self, ctx):
        plan = self.inputs[0].index_plan(ctx)
        if plan is None:
            return None
        return IndexPlan(plan.gather, shuffle_indices(plan.chunks, self._buffer_size, self._generator()))

    def _iterate(self, ctx):
        rng = self._generator()
        buffer = []
        elements = self.inputs[0].iterate(ctx)
        for element in elements:
            if len(buffer) < self._buffer_size:
                buffer.append(element)
                continue
            slot = int(rng.integers(self._buffer_size))
            yield buffer[slot]
            buffer[slot] = element
        for slot in rng.permutation(len(buffer)):
            yield buffer[slot]


def shuffle_indices(chunks, buffer_size, rng):
    """The buffered shuffle of an index stream, vectorised chunk by chunk.

    At step ``t`` the output is the index held by a random slot ``j_t``, which then holds the
    new index. Sorting steps by slot shows, for every step, the previous write to its slot.
    """
    buffer = np.empty(0, np.int64)
    for chunk in chunks:
        if len(buffer) < buffer_size:
            room = buffer_size - len(buffer)
            buffer, chunk = np.concatenate([buffer, chunk[:room]]), chunk[room:]
        if len(chunk):
            out, buffer = _step(buffer, chunk, rng)
            yield out
    if len(buffer):
        yield buffer[rng.permutation(len(buffer))]


def _step(buffer, new, rng):
    slots = rng.integers(0, len(buffer), len(new))
    order = np.argsort(slots, kind="stable")
    by_slot = slots[order]
    repeat = np.zeros(len(new), bool)
    repeat[1:] = by_slot[1:] == by_slot[:-1]
    previous = np.empty_like(new)
    previous[1:] = new[order[:-1]]
    out = np.empty_like(new)
    out[order] = np.where(repeat, previous, buffer[by_slot])
    last = np.ones(len(new), bool)
    last[:-1] = ~repeat[1:]
    buffer = buffer.copy()
    buffer[by_slot[last]] = new[order[last]]
    return out, buffer


def _dataset_key(seed):
    """TF's dataset seeds: an op seed gives (global seed, op seed), the same for every dataset using
    it; without one, the next key of the unseeded stream (reproducible after ``set_seed``)."""
    if seed is None:
        return [int(w) for w in _random.next_host_key(None)]
    op_seed = _random.check_seed(seed, "seed")
    global_seed = _random.global_seed_or(_random.DEFAULT_GLOBAL_SEED)
    return [_SHUFFLE_TAG, global_seed & _MASK, op_seed & _MASK]


_SHUFFLE_TAG = 5  # separates dataset seeds from companion.random's streams
_MASK = (1 << 64) - 1  # SeedSequence takes non-negative words


def _buffer_size(value):
    try:
        size = int(value)
    except (TypeError, ValueError):
        size = 0
    if size == -1:  # AUTOTUNE: tf.data rejects it for shuffle too
        size = 0
    if size < 1 or isinstance(value, bool):
        raise InvalidArgumentError(f"shuffle needs a positive buffer_size (elements held for mixing; use "
                                   f"the dataset size for a uniform shuffle). Received: "
                                   f"buffer_size={value!r}")
    return size
