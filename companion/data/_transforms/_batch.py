"""`batch`, `unbatch` and `rebatch`: grouping consecutive elements along a new first dimension."""

import itertools

from companion._core._errors import InvalidArgumentError
from companion.data import _spec, _structure, _values
from companion.data._autotune import UNKNOWN_CARDINALITY, parallelism
from companion.data._node import Node, wrap
from companion.data._transforms._parallel import parallel_calls


class BatchMethods:
    """`Dataset.batch`, `unbatch`, `rebatch`."""

    def batch(self, batch_size, drop_remainder=False, num_parallel_calls=None, deterministic=None,
              name=None):
        """Stacks ``batch_size`` consecutive elements into one (the last batch may be smaller).

        Args:
            batch_size: elements per batch.
            drop_remainder: drop a last, smaller batch (the batch dimension is then known).
            num_parallel_calls: assemble this many batches at once in a thread pool.
            deterministic: accepted for TensorFlow compatibility (batches keep their order).
            name: accepted for TensorFlow compatibility; unused.

        Example:
            >>> import companion as tf
            >>> [b.numpy().tolist() for b in tf.data.Dataset.range(8).batch(3)]
            [[0, 1, 2], [3, 4, 5], [6, 7]]
            >>> [b.numpy().tolist() for b in tf.data.Dataset.range(8).batch(3, drop_remainder=True)]
            [[0, 1, 2], [3, 4, 5]]
        """
        size = _size(batch_size, "batch_size")
        if num_parallel_calls is not None:
            parallelism(num_parallel_calls, None, "num_parallel_calls")
        return wrap(BatchNode(self._node, size, bool(drop_remainder), num_parallel_calls))

    def unbatch(self, name=None):
        """Splits every element along its first dimension into separate elements.

        Example:
            >>> import companion as tf
            >>> ds = tf.data.Dataset.range(7).batch(3).unbatch()
            >>> [int(x) for x in ds]
            [0, 1, 2, 3, 4, 5, 6]
        """
        _spec.without_leading(self._node.spec, "unbatch")
        return wrap(UnbatchNode(self._node))

    def rebatch(self, batch_size, drop_remainder=False, name=None):
        """Re-groups batched elements into batches of ``batch_size`` (a list cycles through sizes).

        Example:
            >>> import companion as tf
            >>> ds = tf.data.Dataset.range(8).batch(4).rebatch([2, 1, 1])
            >>> [b.numpy().tolist() for b in ds]
            [[0, 1], [2], [3], [4, 5], [6], [7]]
        """
        sizes = [_size(s, "batch_size") for s in
                 (batch_size if isinstance(batch_size, (list, tuple)) else [batch_size])]
        return wrap(RebatchNode(self._node, sizes, bool(drop_remainder)))


class BatchNode(Node):
    """Batches of consecutive elements; one gather per batch when the input has an index plan."""

    kind = "_BatchDataset"

    def __init__(self, node, size, drop_remainder, parallel=None):
        super().__init__(node)
        self._size, self._drop, self._parallel = size, drop_remainder, parallel
        if parallel is not None:
            self.kind = "_ParallelBatchDataset"

    def _compute_spec(self):
        return _spec.with_leading(self.inputs[0].spec, self._size if self._drop else None)

    def cardinality(self):
        return batched_cardinality(self.inputs[0].cardinality(), self._size, self._drop)

    def _iterate(self, ctx):
        source = self.inputs[0]
        plan = source.index_plan(ctx) if ctx.fuse else None
        if plan is not None:
            yield from plan.batches(self._size, self._drop)
            return
        def groups(context):
            return _groups(source.iterate(context), self._size, self._drop)

        if self._parallel is None:
            for index, group in enumerate(groups(ctx)):
                if ctx.skip_errors is None:
                    yield stack_elements(group)
                    continue
                try:
                    batch = stack_elements(group)
                except Exception as error:  # e.g. elements of different shapes
                    ctx.skip_errors(error, "batch", index)
                    continue
                yield batch
            return
        workers = parallelism(self._parallel, ctx.options, "num_parallel_calls")
        yield from parallel_calls(groups, lambda group, _: stack_elements(group), workers, True, ctx,
                                  "companion.data.batch")


class UnbatchNode(Node):
    kind = "_UnbatchDataset"

    def _compute_spec(self):
        return _spec.without_leading(self.inputs[0].spec, "unbatch")

    def cardinality(self):
        n = self.inputs[0].cardinality()
        dims = {s.shape[0] if s.shape.rank else None for s in _structure.flatten(self.inputs[0].spec)}
        if n < 0 or len(dims) != 1 or None in dims:
            return UNKNOWN_CARDINALITY if n != 0 else 0
        return n * dims.pop()

    def _iterate(self, ctx):
        for element in self.inputs[0].iterate(ctx):
            yield from rows(element)


class RebatchNode(Node):
    kind = "_RebatchDataset"

    def __init__(self, node, sizes, drop_remainder):
        super().__init__(node)
        self._sizes, self._drop = sizes, drop_remainder

    def _compute_spec(self):
        known = self._sizes[0] if self._drop and len(self._sizes) == 1 else None
        return _spec.with_leading(_spec.without_leading(self.inputs[0].spec, "rebatch"), known)

    def cardinality(self):
        return UNKNOWN_CARDINALITY if self.inputs[0].cardinality() != 0 else 0

    def _iterate(self, ctx):
        elements = (row for element in self.inputs[0].iterate(ctx) for row in rows(element))
        for size in itertools.cycle(self._sizes):
            group = list(itertools.islice(elements, size))
            if not group or (len(group) < size and self._drop):
                return
            yield stack_elements(group)


def batched_cardinality(count, size, drop_remainder):
    """How many batches of ``size`` a dataset of ``count`` elements gives (negative counts pass)."""
    if count < 0:
        return count
    return count // size if drop_remainder else -(-count // size)


def stack_elements(group):
    """One batch from a list of elements (leaf-wise stacking)."""
    flat = [_structure.flatten(element) for element in group]
    leaves = [_values.stack(parts, component) for component, parts in enumerate(zip(*flat))]
    return _structure.pack(group[0], leaves)


def rows(element):
    """The elements of a batched element, split along the first dimension.

    Raises:
        InvalidArgumentError: its components have different first dimensions.
    """
    leaves = [_values.as_host(leaf) for leaf in _structure.flatten(element)]
    sizes = {len(leaf) if leaf.ndim else None for leaf in leaves}
    if len(sizes) != 1 or None in sizes:
        raise InvalidArgumentError("Cannot unbatch an element whose components have different (or no) "
                                   f"first dimensions: shapes {[list(x.shape) for x in leaves]}.")
    for i in range(sizes.pop()):
        yield _structure.pack(element, [leaf[i, ...] for leaf in leaves])


def _groups(elements, size, drop_remainder):
    group = []
    for element in elements:
        group.append(element)
        if len(group) == size:
            yield group
            group = []
    if group and not drop_remainder:
        yield group


def _size(value, what):
    try:
        size = int(value)
    except (TypeError, ValueError):
        size = 0
    if size < 1 or isinstance(value, bool):
        raise InvalidArgumentError(f"`{what}` must be a positive integer. Received: {what}={value!r}")
    return size
