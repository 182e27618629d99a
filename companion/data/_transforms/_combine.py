"""`zip`, `concatenate` and `enumerate`: datasets side by side or one after another."""

import numpy as np

from companion._core import _dtypes
from companion.data import _spec, _structure
from companion.data._node import Node, combine_cardinality, node_of, wrap, zip_gather
from companion.data._sources import RangeNode


class CombineMethods:
    """`Dataset.zip`, `concatenate`, `enumerate`."""

    @staticmethod
    def zip(*args, datasets=None, name=None):
        """Elements of several datasets side by side, as the same (nested) structure.

        Stops with the shortest dataset. Takes a tuple/dict of datasets, or datasets as
        separate arguments.

        Example:
            >>> import companion as tf
            >>> a, b = tf.data.Dataset.range(1, 4), tf.data.Dataset.range(4, 7)
            >>> [(int(x), int(y)) for x, y in tf.data.Dataset.zip((a, b))]
            [(1, 4), (2, 5), (3, 6)]
            >>> [(int(x), int(y)) for x, y in tf.data.Dataset.zip(b, a)]
            [(4, 1), (5, 2), (6, 3)]
        """
        if datasets is None:
            if not args:
                raise TypeError("Dataset.zip needs datasets: zip((a, b)), zip(a, b) or zip(datasets=...).")
            datasets = args[0] if len(args) == 1 else tuple(args)
        nodes = _structure.map_structure(lambda d: node_of(d, "Dataset.zip"), datasets)
        return wrap(ZipNode(nodes))

    def concatenate(self, dataset, name=None):
        """This dataset's elements followed by ``dataset``'s (their structures and dtypes must match).

        Example:
            >>> import companion as tf
            >>> a, b = tf.data.Dataset.range(1, 4), tf.data.Dataset.range(4, 8)
            >>> [int(x) for x in a.concatenate(b)]
            [1, 2, 3, 4, 5, 6, 7]
        """
        other = node_of(dataset, "Dataset.concatenate")
        _spec.most_specific(self._node.spec, other.spec, "Dataset.concatenate")  # checks now
        return wrap(ConcatenateNode(self._node, other))

    def enumerate(self, start=0, name=None):
        """Pairs ``(index, element)`` with int64 indices counting from ``start``.

        Example:
            >>> import companion as tf
            >>> ds = tf.data.Dataset.from_tensor_slices([1, 2, 3]).enumerate(start=5)
            >>> [(int(i), int(x)) for i, x in ds]
            [(5, 1), (6, 2), (7, 3)]
        """
        counter = RangeNode((int(start), np.iinfo(np.int64).max), _dtypes.int64)
        return wrap(ZipNode((counter, self._node)))


class ZipNode(Node):
    """One element from each input, packed in the inputs' structure; ends with the shortest."""

    kind = "_ZipDataset"

    def __init__(self, nodes):
        super().__init__(*_structure.flatten(nodes))
        self._structure = nodes

    def _compute_spec(self):
        return _structure.pack(self._structure, [n.spec for n in self.inputs])

    def cardinality(self):
        return combine_cardinality([n.cardinality() for n in self.inputs], "min")

    def plannable(self):
        return all(n.plannable() for n in self.inputs)

    def gather(self):
        if not self.plannable():
            return None
        gathers = [n.gather() for n in self.inputs]
        return None if any(g is None for g in gathers) else zip_gather(self._structure, gathers)

    def _iterate(self, ctx):
        iterators = [n.iterate(ctx) for n in self.inputs]
        try:
            for parts in zip(*iterators):
                yield _structure.pack(self._structure, list(parts))
        finally:
            for it in iterators:
                it.close()


class ConcatenateNode(Node):
    kind = "_ConcatenateDataset"

    def _compute_spec(self):
        return _spec.most_specific(self.inputs[0].spec, self.inputs[1].spec, "Dataset.concatenate")

    def cardinality(self):
        return combine_cardinality([n.cardinality() for n in self.inputs], "sum")

    def _iterate(self, ctx):
        yield from self.inputs[0].iterate(ctx)
        yield from self.inputs[1].iterate(ctx)
