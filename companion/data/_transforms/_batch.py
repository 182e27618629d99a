"""`batch`, `unbatch` and `rebatch`: grouping consecutive elements along a new first dimension."""

import itertools

from companion._core import _dtypes
from companion._core._errors import InvalidArgumentError
from companion.data import _ragged, _spec, _structure, _values
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

    def ragged_batch(self, batch_size, drop_remainder=False, row_splits_dtype=None, name=None):
        """Batches elements of different shapes: components whose shape is not fully known become
        RaggedTensors (the others batch as `batch` does).

        Example:
            >>> import companion as tf
            >>> ds = tf.data.Dataset.range(4).map(lambda x: tf.range(x)).ragged_batch(2)
            >>> ds.element_spec
            RaggedTensorSpec(TensorShape([None, None]), companion.int64, 1, companion.int64)
            >>> [b.to_list() for b in ds]
            [[[], [0]], [[0, 1], [0, 1, 2]]]
        """
        if row_splits_dtype is not None and _dtypes.as_dtype(row_splits_dtype) != _dtypes.int64:
            raise ValueError("companion's ragged_batch keeps row splits as int64 (row_splits_dtype=int64).")
        size = _size(batch_size, "batch_size")
        return wrap(BatchNode(self._node, size, bool(drop_remainder), ragged=True))

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

    def __init__(self, node, size, drop_remainder, parallel=None, ragged=False):
        super().__init__(node)
        self._size, self._drop, self._parallel, self._ragged = size, drop_remainder, parallel, ragged
        if parallel is not None:
            self.kind = "_ParallelBatchDataset"

    def _element_spec(self):
        """The input's spec as batched: with ``ragged``, partly known shapes are ragged."""
        spec = self.inputs[0].spec
        return _ragged.ragged_batch_spec(spec) if self._ragged else spec

    def _compute_spec(self):
        return _spec.with_leading(self._element_spec(), self._size if self._drop else None)

    def _stack(self, group):
        specs = _structure.flatten(self._element_spec())
        if not any(_ragged.is_ragged_spec(s) for s in specs):
            return stack_elements(group)
        flat = [_structure.flatten(element) for element in group]
        leaves = [_ragged.stack([_ragged.as_row(p, spec) for p in parts]) if _ragged.is_ragged_spec(spec)
                  else _values.stack(parts, component)
                  for component, (parts, spec) in enumerate(zip(zip(*flat), specs))]
        return _structure.pack(group[0], leaves)

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
                    yield self._stack(group)
                    continue
                try:
                    batch = self._stack(group)
                except Exception as error:  # e.g. elements of different shapes
                    ctx.skip_errors(error, "batch", index)
                    continue
                yield batch
            return
        workers = parallelism(self._parallel, ctx.options, "num_parallel_calls")
        yield from parallel_calls(groups, lambda group, _: self._stack(group), workers, True, ctx,
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
