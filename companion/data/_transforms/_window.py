"""`window`: groups of consecutive elements as small datasets (one per component)."""

import collections

from companion.data import _spec, _structure, _values
from companion.data._autotune import positive
from companion.data._node import Node, wrap
from companion.data._sources import TensorSlicesNode

_END = object()


class WindowMethods:
    """`Dataset.window`."""

    def window(self, size, shift=None, stride=1, drop_remainder=False, name=None):
        """Windows of ``size`` elements, each a Dataset (a tuple/dict of Datasets for nested elements).

        Window ``k`` starts at input element ``k * shift`` and takes every ``stride``-th element.
        Batch a window to get a tensor: ``ds.window(3).flat_map(lambda w: w.batch(3))``.

        Example:
            >>> import companion as tf
            >>> ds = tf.data.Dataset.range(7).window(3, shift=2, drop_remainder=True)
            >>> [[int(x) for x in w] for w in ds]
            [[0, 1, 2], [2, 3, 4], [4, 5, 6]]
            >>> [[int(x) for x in w] for w in tf.data.Dataset.range(7).window(3, 1, 2, True)]
            [[0, 2, 4], [1, 3, 5], [2, 4, 6]]
        """
        size = positive(size, "size")
        shift = size if shift is None else positive(shift, "shift")
        return wrap(WindowNode(self._node, size, shift, positive(stride, "stride"), bool(drop_remainder)))


class WindowNode(Node):
    kind = "_WindowDataset"

    def __init__(self, node, size, shift, stride, drop_remainder):
        super().__init__(node)
        self._size, self._shift, self._stride, self._drop = size, shift, stride, drop_remainder

    def _compute_spec(self):
        return _structure.map_structure(_spec.DatasetSpec, self.inputs[0].spec)

    def cardinality(self):
        n = self.inputs[0].cardinality()
        if n < 0:
            return n
        if self._drop:
            rest = n - ((self._size - 1) * self._stride + 1)
            return 0 if rest < 0 else rest // self._shift + 1
        return n // self._shift + (0 if n % self._shift == 0 else 1)

    def _iterate(self, ctx):
        elements = iter(self.inputs[0].iterate(ctx))
        buffer, base, exhausted = collections.deque(), 0, False  # buffer[0] is input element `base`
        start, span = 0, (self._size - 1) * self._stride + 1
        while True:
            while not exhausted and base + len(buffer) < start + span:
                try:
                    buffer.append(next(elements))
                except StopIteration:
                    exhausted = True
            picked = [buffer[i - base] for i in range(start, start + span, self._stride)
                      if i - base < len(buffer)]
            if not picked or (len(picked) < self._size and self._drop):
                return
            yield self._as_datasets(picked)
            start += self._shift
            while base < start and (buffer or not exhausted):
                if buffer:
                    buffer.popleft()
                elif next(elements, _END) is _END:
                    exhausted = True
                    break
                base += 1

    def _as_datasets(self, picked):
        flat = [_structure.flatten(element) for element in picked]
        leaves = [wrap(_window_node(_values.stack(parts, k))) for k, parts in enumerate(zip(*flat))]
        return _structure.pack(picked[0], leaves)


def _window_node(values):
    node = TensorSlicesNode(values)
    node.kind = "_VariantDataset"  # as TF shows a window
    return node
