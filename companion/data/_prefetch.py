"""`prefetch`: runs the pipeline upstream in a background thread, a bounded number of elements ahead."""

import itertools

import numpy as np

from companion._core._convert import to_device
from companion.data import _structure, _trace
from companion.data._autotune import buffer_size
from companion.data._node import Node, wrap
from companion.data._runtime import JOIN_TIMEOUT_S, BoundedBuffer, Cancelled, start_thread


class PrefetchMethods:
    """`Dataset.prefetch`."""

    def prefetch(self, buffer_size, name=None):
        """Prepares up to ``buffer_size`` elements in a background thread while the consumer works.

        With ``prefetch``, reading/preprocessing of the next elements overlaps with the
        training step on the current one. `companion.data.AUTOTUNE` picks a small buffer.
        The thread stops when iteration ends or the iterator is dropped.

        Example:
            >>> import companion as tf
            >>> [int(x) for x in tf.data.Dataset.range(3).prefetch(2)]
            [0, 1, 2]
        """
        return wrap(PrefetchNode(self._node, _checked(buffer_size)))


class PrefetchNode(Node):
    kind = "_PrefetchDataset"

    def __init__(self, node, size):
        super().__init__(node)
        self._size = size

    def _iterate(self, ctx):
        size = buffer_size(self._size, "buffer_size")
        if size == 0:
            yield from self.inputs[0].iterate(ctx)
            return
        child = ctx.child()
        buffer = BoundedBuffer(size, child)
        thread = start_thread(lambda: _produce(self.inputs[0].iterate(child), buffer),
                              "companion.data.prefetch")
        try:
            for index in itertools.count():
                token = _trace.begin()  # the consumer's wait for the next element
                kind, payload = buffer.get()
                if kind == "end":
                    return
                if kind == "error":
                    raise payload
                _trace.end(token, "prefetch", index)
                yield payload
        finally:
            child.cancel()
            thread.join(JOIN_TIMEOUT_S)


def _produce(elements, buffer):
    try:
        for element in elements:
            if not buffer.put(("value", _structure.map_structure(_on_device, element))):
                return
        buffer.put(("end", None))
    except Cancelled:
        return
    except Exception as error:
        buffer.put(("error", error))
    finally:
        elements.close()


def _on_device(leaf):
    """Numeric NumPy leaves become device arrays here, off the consumer's thread."""
    if isinstance(leaf, np.ndarray) and leaf.dtype != object:
        return to_device(leaf)  # a transfer (jnp.asarray would compile a copy program per shape)
    return leaf


def _checked(size):
    try:
        value = int(size)
    except (TypeError, ValueError):
        value = -2
    if value < -1 or isinstance(size, bool):
        raise ValueError("prefetch needs buffer_size >= 0 or companion.data.AUTOTUNE. "
                         f"Received: buffer_size={size!r}")
    return value
