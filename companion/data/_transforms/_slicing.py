"""`take`, `skip`, `repeat` and `shard`: which elements, and how many times."""

import itertools

from companion.data._autotune import INFINITE_CARDINALITY, UNKNOWN_CARDINALITY
from companion.data._node import IndexPlan, Node, drop, remapped_gather, repeat_chunks, truncate, wrap


class SlicingMethods:
    """`Dataset.take`, `skip`, `repeat`, `shard`."""

    def take(self, count, name=None):
        """The first ``count`` elements (all of them when ``count`` is -1).

        Example:
            >>> import companion as tf
            >>> [int(x) for x in tf.data.Dataset.range(10).take(3)]
            [0, 1, 2]
        """
        return wrap(TakeNode(self._node, _count(count, "take")))

    def skip(self, count, name=None):
        """All but the first ``count`` elements (none when ``count`` is -1).

        Example:
            >>> import companion as tf
            >>> [int(x) for x in tf.data.Dataset.range(10).skip(7)]
            [7, 8, 9]
        """
        return wrap(SkipNode(self._node, _count(count, "skip")))

    def repeat(self, count=None, name=None):
        """The elements ``count`` times over (forever when ``count`` is None or -1).

        Each repetition iterates the input again, so a ``shuffle`` before ``repeat`` gives
        a new order every epoch (with ``reshuffle_each_iteration=True``).

        Example:
            >>> import companion as tf
            >>> [int(x) for x in tf.data.Dataset.from_tensor_slices([1, 2, 3]).repeat(2)]
            [1, 2, 3, 1, 2, 3]
        """
        count = None if count is None else _count(count, "repeat")
        return wrap(RepeatNode(self._node, None if count == -1 else count))

    def shard(self, num_shards, index, name=None):
        """Every ``num_shards``-th element starting at ``index`` (one worker's share).

        Example:
            >>> import companion as tf
            >>> [int(x) for x in tf.data.Dataset.range(10).shard(3, 1)]
            [1, 4, 7]
        """
        num_shards, index = int(num_shards), int(index)
        if num_shards < 1 or not 0 <= index < num_shards:
            raise ValueError(f"shard needs num_shards >= 1 and 0 <= index < num_shards. Received: "
                             f"num_shards={num_shards}, index={index}")
        return wrap(ShardNode(self._node, num_shards, index))


class _PassThrough(Node):
    """A node whose index plans come from its input's."""

    def plannable(self):
        return self.inputs[0].plannable()


class TakeNode(_PassThrough):
    kind = "_TakeDataset"

    def __init__(self, node, count):
        super().__init__(node)
        self._count = count

    def cardinality(self):
        n = self.inputs[0].cardinality()
        if self._count == -1:
            return n
        if n == UNKNOWN_CARDINALITY:
            return UNKNOWN_CARDINALITY
        return self._count if n == INFINITE_CARDINALITY else min(n, self._count)

    def gather(self):
        source = self.inputs[0].gather()
        if source is None or self._count == -1:
            return source
        return remapped_gather(source, min(source.size, self._count), lambda idx: idx)

    def index_plan(self, ctx):
        plan = self.inputs[0].index_plan(ctx)
        if plan is None or self._count == -1:
            return plan
        return IndexPlan(plan.gather, truncate(plan.chunks, self._count))

    def _iterate(self, ctx):
        elements = self.inputs[0].iterate(ctx)
        try:
            yield from itertools.islice(elements, None if self._count == -1 else self._count)
        finally:
            elements.close()


class SkipNode(_PassThrough):
    kind = "_SkipDataset"

    def __init__(self, node, count):
        super().__init__(node)
        self._count = count

    def cardinality(self):
        n = self.inputs[0].cardinality()
        if n < 0:
            return n
        return 0 if self._count == -1 else max(n - self._count, 0)

    def gather(self):
        source = self.inputs[0].gather()
        if source is None:
            return None
        start = source.size if self._count == -1 else min(self._count, source.size)
        return remapped_gather(source, source.size - start, lambda idx: idx + start)

    def index_plan(self, ctx):
        plan = self.inputs[0].index_plan(ctx)
        if plan is None or self._count == -1:
            return None if plan is None else IndexPlan(plan.gather, iter(()))
        return IndexPlan(plan.gather, drop(plan.chunks, self._count))

    def _iterate(self, ctx):
        elements = self.inputs[0].iterate(ctx)
        if self._count == -1:
            for _ in elements:
                pass
            return
        yield from itertools.islice(elements, self._count, None)


class RepeatNode(_PassThrough):
    kind = "_RepeatDataset"

    def __init__(self, node, count):
        super().__init__(node)
        self._count = count  # None: forever

    def cardinality(self):
        n = self.inputs[0].cardinality()
        if self._count == 0 or n == 0:
            return 0
        if n == UNKNOWN_CARDINALITY:
            return n
        return INFINITE_CARDINALITY if self._count is None or n == INFINITE_CARDINALITY else n * self._count

    def gather(self):
        source = self.inputs[0].gather()
        if source is None or self._count is None:
            return None
        size = source.size
        return remapped_gather(source, size * self._count, lambda idx: idx % size if size else idx)

    def index_plan(self, ctx):
        source = self.inputs[0]
        first = source.index_plan(ctx)
        if first is None:
            return None
        epochs = None if self._count is None else max(self._count - 1, 0)
        later = repeat_chunks(lambda: source.index_plan(ctx).chunks, epochs)
        chunks = iter(()) if self._count == 0 else itertools.chain(first.chunks, later)
        return IndexPlan(first.gather, chunks)

    def _iterate(self, ctx):
        epochs = itertools.count() if self._count is None else range(self._count)
        for _ in epochs:
            produced = False
            for element in self.inputs[0].iterate(ctx):
                produced = True
                yield element
            if not produced:
                return


class ShardNode(Node):
    kind = "_ShardDataset"

    def __init__(self, node, num_shards, index):
        super().__init__(node)
        self._num, self._index = num_shards, index

    def cardinality(self):
        n = self.inputs[0].cardinality()
        if n < 0:
            return n
        return n // self._num + (1 if self._index < n % self._num else 0)

    def gather(self):
        source = self.inputs[0].gather()
        if source is None:
            return None
        size = source.size // self._num + (1 if self._index < source.size % self._num else 0)
        return remapped_gather(source, size, lambda idx: idx * self._num + self._index)

    def _iterate(self, ctx):
        for position, element in enumerate(self.inputs[0].iterate(ctx)):
            if position % self._num == self._index:
                yield element


def _count(count, what):
    try:
        value = int(count)
    except (TypeError, ValueError):
        value = None
    if value is None or value < -1 or isinstance(count, bool):
        raise ValueError(f"{what} expects an integer count >= -1 (-1 meaning all). Received: {count!r}")
    return value


