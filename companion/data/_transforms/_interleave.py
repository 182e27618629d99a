"""`interleave` and `flat_map`: datasets made from elements, read in turns (optionally in parallel).

The order is tf.data's: ``cycle_length`` slots each read from one input element's dataset;
the cycle takes ``block_length`` elements from a slot before moving on; an exhausted slot
is refilled with the next input element when the cycle comes back to it. With
``num_parallel_calls`` every open slot (and up to ``cycle_length`` slots opened ahead) reads
in its own thread into a small buffer, so slow sources (file opens, reads) overlap.
"""

import collections

from companion.data import _values
from companion.data._autotune import UNKNOWN_CARDINALITY, parallelism, positive
from companion.data._autotune import cycle_length as _cycle_length
from companion.data._functions import ElementFunction, call_args
from companion.data._node import Node, first_element, known_spec, node_of, wrap
from companion.data._runtime import JOIN_TIMEOUT_S, BoundedBuffer, Cancelled, Slots, start_thread
from companion.data._trace import traced_call
from companion.data._transforms._map import _deterministic

_END = object()


class InterleaveMethods:
    """`Dataset.flat_map` and `Dataset.interleave`."""

    def flat_map(self, map_func, name=None):
        """Maps every element to a dataset and yields their elements one dataset after another.

        Example:
            >>> import companion as tf
            >>> ds = tf.data.Dataset.from_tensor_slices([[1, 2, 3], [4, 5, 6], [7, 8, 9]])
            >>> [int(x) for x in ds.flat_map(tf.data.Dataset.from_tensor_slices)]
            [1, 2, 3, 4, 5, 6, 7, 8, 9]
        """
        fn = ElementFunction(map_func, "flat_map", compile=False)
        node = InterleaveNode(self._node, fn, 1, 1, None, None)
        node.kind = "_FlatMapDataset"
        return wrap(node)

    def interleave(self, map_func, cycle_length=None, block_length=None, num_parallel_calls=None,
                   deterministic=None, name=None):
        """Maps elements to datasets and interleaves their elements.

        Args:
            map_func: a function from an element to a Dataset.
            cycle_length: how many datasets are read in turn (None/AUTOTUNE: the CPU count).
            block_length: consecutive elements taken from one dataset before the next (default 1).
            num_parallel_calls: read the datasets in this many background threads at once
                (AUTOTUNE: a size for this machine); None reads them one at a time.
            deterministic: with parallel reads, keep the order above (default: the
                ``deterministic`` option, True unless set), or take whatever is ready.
            name: accepted for TensorFlow compatibility; unused.

        Example:
            >>> import companion as tf
            >>> ds = tf.data.Dataset.range(1, 6).interleave(
            ...     lambda x: tf.data.Dataset.from_tensors(x).repeat(6), cycle_length=2, block_length=4)
            >>> [int(x) for x in ds]
            [1, 1, 1, 1, 2, 2, 2, 2, 1, 1, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 3, 3, 4, 4, 5, 5, 5, 5, 5, 5]
        """
        fn = ElementFunction(map_func, "interleave", compile=False)
        cycle = _cycle_length(cycle_length)
        block = 1 if block_length is None else positive(block_length, "block_length")
        if num_parallel_calls is not None:
            parallelism(num_parallel_calls, None, "num_parallel_calls")
        return wrap(InterleaveNode(self._node, fn, cycle, block, num_parallel_calls, deterministic))


class InterleaveNode(Node):
    kind = "_InterleaveDataset"

    def __init__(self, node, fn, cycle, block, parallel, deterministic):
        super().__init__(node)
        self._fn, self._cycle, self._block = fn, cycle, block
        self._parallel, self._deterministic = parallel, deterministic
        if parallel is not None:
            self.kind = "_ParallelInterleaveDataset"
        self._traced_spec = None
        self._traced_spec = self._trace()

    def _trace(self):
        """Traces the function on the input's element spec now, as TF does (its prints show now).
        A trace that fails as TF's would raises now, unless the function works on the first
        element (companion is lenient there, as for map)."""
        spec = known_spec(self.inputs[0])
        if spec is None:
            return None
        result = self._fn.trace_dataset(call_args(spec))
        if result is None and self._fn.failed_as_tf_would():
            try:
                self._compute_spec()  # runs the function on the first element
            except Exception:
                raise self._fn._trace_error from None
        return result

    def _compute_spec(self):
        if self._traced_spec is not None:
            return self._traced_spec
        first = first_element(self.inputs[0], f"Dataset.{self._fn.what}")
        return self._dataset_for(first, 0).spec

    def cardinality(self):
        return UNKNOWN_CARDINALITY

    def _dataset_for(self, element, index):
        result = traced_call(self._fn.what, index, self._fn, call_args(element), index)
        if not _values.is_dataset(result):
            raise TypeError(f"The function passed to Dataset.{self._fn.what} must return a Dataset. "
                            f"It returned {result!r} of type {type(result).__name__} for element {index}.")
        return node_of(result, f"Dataset.{self._fn.what}")

    def _iterate(self, ctx):
        inputs = enumerate(self.inputs[0].iterate(ctx))
        if self._parallel is None:
            opener = _Opener(inputs, lambda node: _Slot(node.iterate(ctx)), self._dataset_for, 0)
            yield from _cycle_through(opener, self._cycle, self._block, True)
            return
        workers = parallelism(self._parallel, ctx.options, "num_parallel_calls")
        limiter = Slots(workers, ctx)
        capacity = max(2, self._block)
        opener = _Opener(inputs, lambda node: _ThreadSlot(node, ctx, capacity, limiter),
                         self._dataset_for, self._cycle)
        yield from _cycle_through(opener, self._cycle, self._block,
                                  _deterministic(self._deterministic, ctx.options))


class _Opener:
    """Opens the next input element's dataset as a slot; keeps ``ahead`` slots opened in advance."""

    def __init__(self, inputs, make_slot, dataset_for, ahead):
        self._inputs, self._make_slot, self._dataset_for = inputs, make_slot, dataset_for
        self._ahead = ahead
        self._opened = collections.deque()
        self._exhausted = False

    def next_slot(self):
        self._top_up()
        return self._opened.popleft() if self._opened else self._open()

    def close(self):
        while self._opened:
            self._opened.popleft().close()

    def _top_up(self):
        while len(self._opened) < self._ahead and not self._exhausted:
            slot = self._open()
            if slot is not None:
                self._opened.append(slot)

    def _open(self):
        if self._exhausted:
            return None
        try:
            index, element = next(self._inputs)
        except StopIteration:
            self._exhausted = True
            return None
        return self._make_slot(self._dataset_for(element, index))


def _cycle_through(opener, cycle_length, block_length, deterministic):
    slots = [None] * cycle_length
    position = block = opened = 0
    end_of_input = False
    try:
        while not end_of_input or opened:
            slot = slots[position]
            if slot is None:
                if end_of_input:
                    position, block = (position + 1) % cycle_length, 0
                    continue
                slot = opener.next_slot()
                end_of_input = slot is None
                if slot is not None:
                    slots[position], opened = slot, opened + 1
                continue
            if not deterministic and not slot.ready():
                position, block = _ready_position(slots, position), 0
                slot = slots[position]
            value = slot.get()
            if value is not _END:
                yield value
                block += 1
                if block == block_length:
                    position, block = (position + 1) % cycle_length, 0
                continue
            slot.close()
            slots[position], opened = None, opened - 1
            position, block = (position + 1) % cycle_length, 0
    finally:
        for slot in slots:
            if slot is not None:
                slot.close()
        opener.close()


def _ready_position(slots, position):
    for step in range(1, len(slots)):
        k = (position + step) % len(slots)
        if slots[k] is not None and slots[k].ready():
            return k
    return position


class _Slot:
    """A dataset read in the consumer's thread."""

    def __init__(self, elements):
        self._elements = elements

    def get(self):
        return next(self._elements, _END)

    def ready(self):
        return True

    def close(self):
        self._elements.close()


class _ThreadSlot:
    """A dataset read ahead in its own thread into a small buffer."""

    def __init__(self, node, ctx, capacity, limiter):
        self._ctx = ctx.child()
        self._buffer = BoundedBuffer(capacity, self._ctx)
        elements = node.iterate(self._ctx)
        self._thread = start_thread(lambda: _produce(elements, self._buffer, limiter),
                                    "companion.data.interleave")

    def get(self):
        kind, payload = self._buffer.get()
        if kind == "error":
            raise payload
        return _END if kind == "end" else payload

    def ready(self):
        return len(self._buffer) > 0

    def close(self):
        self._ctx.cancel()
        self._thread.join(JOIN_TIMEOUT_S)


def _produce(elements, buffer, limiter):
    try:
        while True:
            if not limiter.acquire():
                return
            try:
                element = next(elements, _END)
            finally:
                limiter.release()
            if element is _END:
                buffer.put(("end", None))
                return
            if not buffer.put(("value", element)):
                return
    except Cancelled:
        return
    except Exception as error:
        buffer.put(("error", error))
    finally:
        elements.close()
