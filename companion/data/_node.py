"""The pipeline engine's node protocol, and random access (`Gather`) with index plans for fusion.

A `Dataset` is a thin public object around a `Node`. A node knows its element spec, its
cardinality and how to iterate (a Python generator of elements whose leaves are NumPy or
JAX arrays). Nodes whose elements live in memory also offer *random access*: a `Gather`
fetches many elements at once by index (one NumPy or compiled JAX gather). Shuffle, repeat,
take and skip then only move index arrays around (an `IndexPlan`), and batch fetches each
batch with one gather instead of stacking per-element Python objects.
"""

import itertools
import threading

import jax
import numpy as np

from companion._core._errors import OpError
from companion.data import _structure, _values
from companion.data._autotune import INFINITE_CARDINALITY, UNKNOWN_CARDINALITY
from companion.data._options import Options
from companion.data._runtime import Context, outside_user_code

ROWS_CHUNK = 64  # elements fetched per gather when a fused pipeline yields single elements
MAX_BATCHES_PER_FETCH = 32  # batches fetched per compiled gather (one dispatch for several batches)
FETCH_BYTES = 8 << 20  # ... as long as they hold at most about this much data


class Node:
    """One stage of a pipeline. Subclasses implement ``_iterate`` and, if they can, ``gather``."""

    kind = "Dataset"

    def __init__(self, *inputs):
        self.inputs = inputs
        self._spec = None

    @property
    def spec(self):
        """The element spec (computed on first use: a map function may need a trace)."""
        if self._spec is None:
            self._spec = self._compute_spec()
        return self._spec

    def _compute_spec(self):
        return self.inputs[0].spec

    def cardinality(self):
        return self.inputs[0].cardinality()

    def options(self):
        """The Options of the pipeline up to this node (later with_options calls win)."""
        merged = Options()
        for node in self.inputs:
            merged = merged.merge(node.options())
        own = self.own_options()
        return merged if own is None else merged.merge(own)

    def own_options(self):
        return None

    def iterate(self, ctx):
        """A generator of this node's elements for one iteration run under ``ctx``."""
        if ctx.fuse:
            plan = self.index_plan(ctx)
            if plan is not None:
                return plan.rows()
        return self._iterate(ctx)

    def _iterate(self, ctx):
        raise NotImplementedError

    def gather(self):
        """A `Gather` over this node's elements, or None without random access."""
        return None

    def plannable(self):
        """Whether `index_plan` may return a plan (cheap: no spec, no tracing, no data)."""
        return False

    def index_plan(self, ctx):
        """An `IndexPlan` producing this node's elements by index, or None."""
        gather = self.gather()
        return None if gather is None else IndexPlan(gather, in_order(gather.size))


class Gather:
    """Random access: ``take(indices)`` returns the elements at ``indices`` stacked (a batch).

    ``take_many(indices)`` fetches several batches (one per row of a 2-D index array) at once;
    device-resident sources do it in one compiled call, which amortises JAX's dispatch cost.
    """

    def __init__(self, size, take, take_many=None, row_bytes=0):
        self.size = size
        self.take = take
        self.take_many = take_many or (lambda rows: [take(row) for row in rows])
        self.row_bytes = row_bytes  # bytes of one element of the source (a guide for fetch sizes)


def array_gather(element):
    """Random access into the rows of ``element``'s leaves (all with the same first dimension)."""
    leaves = _structure.flatten(element)
    on_device = [i for i, leaf in enumerate(leaves) if isinstance(leaf, jax.Array)]
    on_host = [i for i in range(len(leaves)) if i not in on_device]
    device = tuple(leaves[i] for i in on_device)

    def take_many(rows):
        if on_device:  # one gather per leaf for all the rows, then one batch per row
            fetched = zip(*[list(stacked) for stacked in _take_device(device, rows)])
        else:
            fetched = [()] * len(rows)
        batches = []
        for row, arrays in zip(rows, fetched):
            out = [None] * len(leaves)
            for i, array in zip(on_device, arrays):
                out[i] = array
            for i in on_host:
                out[i] = np.take(leaves[i], row, axis=0)
            batches.append(_structure.pack(element, out))
        return batches

    row_bytes = sum(leaf.nbytes // max(len(leaf), 1) for leaf in leaves if leaf.dtype != object)
    return Gather(len(leaves[0]), lambda indices: take_many(indices[None])[0], take_many, row_bytes)


def mapped_gather(gather, fn):
    """``gather`` with ``fn`` (batched element → batched element) applied to every fetch."""
    return Gather(gather.size, lambda indices: fn(gather.take(indices)),
                  lambda rows: [fn(batch) for batch in gather.take_many(rows)], gather.row_bytes)


def zip_gather(structure, gathers):
    """Random access into a zip of datasets that all have it."""
    def take_many(rows):
        parts = [g.take_many(rows) for g in gathers]
        return [_structure.pack(structure, list(batch)) for batch in zip(*parts)]

    size = min(g.size for g in gathers)
    return Gather(size, lambda indices: take_many(indices[None])[0], take_many,
                  sum(g.row_bytes for g in gathers))


def remapped_gather(gather, size, remap):
    """``size`` elements whose index ``i`` is ``gather``'s index ``remap(i)`` (works on arrays)."""
    return Gather(size, lambda indices: gather.take(remap(indices)),
                  lambda rows: gather.take_many(remap(rows)), gather.row_bytes)


class IndexPlan:
    """Elements to produce, as a `Gather` plus an iterator of index arrays (in output order)."""

    def __init__(self, gather, chunks):
        self.gather = gather
        self.chunks = chunks

    def rows(self):
        """Generator of single elements, fetched `ROWS_CHUNK` at a time."""
        for indices in regroup(self.chunks, ROWS_CHUNK):
            try:
                part = self.gather.take(_padded(indices, ROWS_CHUNK))
            except OpError:  # an element fails (a bad index in a map): the ones before it come first
                yield from self._one_by_one(indices)
                continue
            host = _structure.map_structure(_values.as_host, part)
            for i in range(len(indices)):
                yield _structure.map_structure(lambda leaf, i=i: leaf[i, ...], host)

    def _one_by_one(self, indices):
        """The elements at ``indices`` fetched one at a time: an element that fails raises after
        those before it were produced, as where TF makes elements one by one."""
        for index in indices:
            part = _structure.map_structure(_values.as_host, self.gather.take(np.asarray([index])))
            yield _structure.map_structure(lambda leaf: leaf[0, ...], part)

    def batches(self, size, drop_remainder):
        """Generator of batches of ``size`` elements, several fetched per gather (see FETCH_BYTES)."""
        per_fetch = max(1, min(MAX_BATCHES_PER_FETCH, FETCH_BYTES // max(1, self.gather.row_bytes * size)))
        group = size * per_fetch
        for indices in regroup(self.chunks, group):
            if len(indices) == group:
                rows = indices.reshape(per_fetch, size)
                try:
                    batches = self.gather.take_many(rows)
                except OpError:  # a batch fails: those before it come first, as in TF
                    batches = (self.gather.take(row) for row in rows)
                yield from batches
                continue
            for part in regroup(iter([indices]), size):
                if len(part) < size and drop_remainder:
                    return
                # a short batch is padded to the full size (one compiled gather for every batch),
                # but never beyond the source: batch(1000001) means "the whole set as one batch"
                batch = self.gather.take(_padded(part, min(size, max(len(part), self.gather.size))))
                yield batch if len(part) == size else _head(batch, len(part))


def in_order(size, chunk=1 << 16):
    """The index stream ``0, 1, ..., size - 1`` in chunks (lazily: a range may be huge)."""
    for start in range(0, size, chunk):
        yield np.arange(start, min(start + chunk, size), dtype=np.int64)


def regroup(chunks, size):
    """Re-slices a stream of index arrays into arrays of ``size`` (the last may be shorter)."""
    pending = np.empty(0, np.int64)
    chunks = iter(chunks)
    while True:
        try:
            chunk = next(chunks)
        except StopIteration:
            break
        except OpError:  # making the indices failed (a filter's predicate): those before it come first
            if len(pending):
                yield pending
            raise
        chunk = np.concatenate([pending, chunk]) if len(pending) else chunk
        full = len(chunk) // size * size
        for start in range(0, full, size):
            yield chunk[start:start + size]
        pending = chunk[full:]
    if len(pending):
        yield pending


def truncate(chunks, count):
    """The first ``count`` indices of a chunk stream."""
    for chunk in chunks:
        if count <= 0:
            return
        yield chunk[:count]
        count -= len(chunk)


def drop(chunks, count):
    """A chunk stream without its first ``count`` indices."""
    for chunk in chunks:
        if count >= len(chunk):
            count -= len(chunk)
            continue
        yield chunk[count:]
        count = 0


def repeat_chunks(make_chunks, count):
    """``make_chunks()`` streams one after another, ``count`` times (None: forever).

    Stops early when an epoch is empty (repeating nothing forever would never yield).
    """
    epochs = itertools.count() if count is None else range(count)
    for _ in epochs:
        produced = 0
        for chunk in make_chunks():
            produced += len(chunk)
            yield chunk
        if produced == 0:
            return


def combine_cardinality(values, rule):
    """Cardinality arithmetic where any UNKNOWN wins, then INFINITE (for ``rule='sum'``)."""
    if UNKNOWN_CARDINALITY in values:
        return UNKNOWN_CARDINALITY
    if rule == "sum":
        return INFINITE_CARDINALITY if INFINITE_CARDINALITY in values else sum(values)
    finite = [v for v in values if v != INFINITE_CARDINALITY]
    return min(finite) if finite else INFINITE_CARDINALITY


def _head(batch, count):
    return _structure.map_structure(lambda leaf: leaf[:count], batch)


def _padded(indices, size):
    if len(indices) == size:
        return indices
    return np.concatenate([indices, np.full(size - len(indices), indices[-1], indices.dtype)])


def _take_leaves(leaves, rows):
    """Each leaf's rows at a 2-D index array, stacked ``[len(rows), batch, ...]`` (one compiled call:
    one gather per leaf; a gather per row and leaf took XLA about 0.5 s to compile for 32 rows)."""
    return tuple(leaf.at[rows].get(mode="promise_in_bounds") for leaf in leaves)


_take_device = jax.jit(_take_leaves)


def wrap(node):
    """The public `Dataset` around ``node``."""
    # deferred: companion.data._dataset imports this module at its top
    from companion.data._dataset import Dataset

    return Dataset(node)


def node_of(dataset, what):
    """The node of ``dataset``, or a TypeError saying ``what`` needed a Dataset."""
    node = getattr(dataset, "_node", None)
    if not isinstance(node, Node):
        raise TypeError(f"{what} expected a companion.data.Dataset. Received: {dataset!r} of type "
                        f"{type(dataset).__name__}.")
    return node


class ElementsNeeded(Exception):
    """Raised by `first_elements` where elements must not be run (`known_spec`)."""


_PEEKING = threading.local()


def known_spec(node):
    """``node``'s element spec if it is known without running any element (else None): what a
    transformation being made may use, as TF's input spec is known when it traces."""
    _PEEKING.refused = getattr(_PEEKING, "refused", 0) + 1
    try:
        return node.spec
    except Exception:  # noqa: BLE001 - elements needed, or the spec fails: iteration reports it
        return None
    finally:
        _PEEKING.refused -= 1


def first_elements(node, count):
    """Up to ``count`` first elements of ``node`` (fewer when it is shorter), closing the iteration."""
    if getattr(_PEEKING, "refused", 0):
        raise ElementsNeeded(f"the element spec of {type(node).__name__} needs elements")
    ctx = Context(node.options())
    elements = node.iterate(ctx)
    try:
        with outside_user_code():
            return list(itertools.islice(elements, count))
    finally:
        ctx.cancel()
        elements.close()


def first_element(node, what):
    """The first element of ``node`` (for specs that need a real element), closing the iteration.

    Raises:
        ValueError: the dataset is empty.
    """
    ctx = Context(node.options())
    elements = node.iterate(ctx)
    try:
        with outside_user_code():
            return next(elements)
    except StopIteration:
        raise ValueError(f"Cannot infer the element spec of {what} on an empty dataset: its function "
                         "has to run on an element. Make sure the input has elements.") from None
    finally:
        ctx.cancel()
        elements.close()
