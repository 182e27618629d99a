"""`shuffle`: tf.data's buffered shuffle, TensorFlow's element order, on elements or on index arrays.

The algorithm is TF's (``shuffle_dataset_op.cc``): the buffer holds up to ``buffer_size`` elements
in arrival order; each output takes the element at ``start + word % count`` (``count`` elements
held, ``word`` the next 32-bit number of the iterator's Philox stream), the element at ``start``
moves into its place, and the next input element joins at the end. With a buffer at least as
large as the input this is a uniform permutation. Over in-memory data the same steps run on
indices (`shuffle_indices`: the words and their remainders in bulk, a tight loop for the moves),
so no element is touched.

Seeds are TF's (`_seed_generator`): each iteration (epoch; ``repeat`` runs one per pass) draws
from ``PhiloxRandom(iterator seeds)``, new ones per iteration with ``reshuffle_each_iteration``. So
seeded shuffles, repeated or iterated again, produce TensorFlow's orders (``shuffle(...).repeat(n)``,
which TF fuses, gives the same orders).
"""

import itertools

import numpy as np

from companion._core._errors import InvalidArgumentError
from companion.data._node import IndexPlan, Node, wrap
from companion.data._seed_generator import PhiloxWords, SeedGenerator


class ShuffleMethods:
    """`Dataset.shuffle`."""

    def shuffle(self, buffer_size, seed=None, reshuffle_each_iteration=True, name=None):
        """Randomly shuffles elements with a buffer of ``buffer_size`` elements.

        A buffer at least as large as the dataset gives a uniform shuffle; a smaller one only
        mixes nearby elements (and uses less memory).

        Args:
            buffer_size: the number of elements held in the buffer (>= 1).
            seed: the op seed (see `companion.random.set_seed`). With an op seed or a global seed
                the orders are TensorFlow's, epoch by epoch.
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
        return wrap(ShuffleNode(self._node, size, SeedGenerator(seed, bool(reshuffle_each_iteration))))


class ShuffleNode(Node):
    kind = "_ShuffleDataset"

    def __init__(self, node, buffer_size, seeds):
        super().__init__(node)
        self._buffer_size = buffer_size
        self._seeds = seeds

    def plannable(self):
        return self.inputs[0].plannable()

    def index_plan(self, ctx):
        plan = self.inputs[0].index_plan(ctx)
        if plan is None:
            return None
        seeds = self._seeds.next_iterator_seeds()
        return IndexPlan(plan.gather, shuffle_indices(plan.chunks, self._buffer_size, seeds))

    def _iterate(self, ctx):
        # the seeds are taken when the iteration starts (TF: when the iterator is made)
        return _shuffled(self.inputs[0].iterate(ctx), self._buffer_size, self._seeds.next_iterator_seeds())


def _shuffled(elements, buffer_size, seeds):
    """TF's shuffle iterator over an element stream (read lazily, as TF fills its buffer)."""
    words = PhiloxWords(seeds).one_by_one()
    ring = list(itertools.islice(elements, buffer_size))
    size, count, start = len(ring), len(ring), 0
    more = count == buffer_size
    while count:
        slot = start % size
        chosen = (start + next(words) % count) % size
        yield ring[chosen]
        ring[chosen] = ring[slot]
        ring[slot] = None
        start, count = start + 1, count - 1
        if more:
            for element in elements:
                ring[slot] = element
                count += 1
                break
            else:
                more = False


def shuffle_indices(chunks, buffer_size, seeds):
    """TF's shuffle of an index stream (a generator of chunks), chunk by chunk.

    While input lasts the buffer is full, so every draw is ``word % buffer_size``: the words and
    the slots come in bulk, and a tight loop moves the indices. Then the buffer drains.
    """
    words = PhiloxWords(seeds)
    chunks = iter(chunks)
    ring, rest = [], np.empty(0, np.int64)
    for chunk in chunks:
        room = buffer_size - len(ring)
        ring.extend(chunk[:room].tolist())
        if len(chunk) > room:
            rest = chunk[room:]
            break
    size, start = len(ring), 0
    if size == buffer_size:
        for chunk in itertools.chain([rest], chunks):
            if not len(chunk):
                continue
            steps = start + np.arange(len(chunk))
            slots = (steps % size).tolist()
            chosen = ((steps + words.take(len(chunk)) % size) % size).tolist()
            out = []
            for slot, pick, new in zip(slots, chosen, chunk.tolist()):
                out.append(ring[pick])
                ring[pick] = ring[slot]
                ring[slot] = new
            start += len(chunk)
            yield np.asarray(out, np.int64)
    if size:
        counts = np.arange(size, 0, -1)
        steps = start + np.arange(size)
        slots = (steps % size).tolist()
        chosen = ((steps + words.take(size) % counts) % size).tolist()
        out = []
        for slot, pick in zip(slots, chosen):
            out.append(ring[pick])
            ring[pick] = ring[slot]
        yield np.asarray(out, np.int64)


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
