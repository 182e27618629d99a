"""`sample_from_datasets`, `choose_from_datasets`, `Dataset.random`: elements picked from several datasets."""

import numpy as np

from companion._core import _dtypes
from companion._core._errors import InvalidArgumentError
from companion.data import _spec, _structure
from companion.data._autotune import INFINITE_CARDINALITY, UNKNOWN_CARDINALITY
from companion.data._node import Node, node_of, wrap
from companion.data._seed_generator import PhiloxWords, SeedGenerator


class SamplingMethods:
    """`Dataset.sample_from_datasets`, `Dataset.choose_from_datasets`, `Dataset.random`."""

    @staticmethod
    def sample_from_datasets(datasets, weights=None, seed=None, stop_on_empty_dataset=False,
                             rerandomize_each_iteration=None):
        """Elements drawn at random from ``datasets``, dataset ``i`` with probability ``weights[i]``.

        An exhausted dataset drops out (the others' weights are renormalised), or ends the
        sampling with ``stop_on_empty_dataset=True``. The random sequence is companion's own
        (the same for a given ``seed``), not TensorFlow's.

        Example:
            >>> import companion as tf
            >>> a = tf.data.Dataset.from_tensors(1).repeat(3)
            >>> b = tf.data.Dataset.from_tensors(2).repeat(3)
            >>> sorted(int(x) for x in tf.data.Dataset.sample_from_datasets([a, b], seed=1))
            [1, 1, 1, 2, 2, 2]
        """
        nodes = _nodes(datasets, "sample_from_datasets")
        probs = np.full(len(nodes), 1.0 / len(nodes)) if weights is None else np.asarray(
            getattr(weights, "_value", weights), np.float64).reshape(-1)
        if len(probs) != len(nodes) or (probs < 0).any() or probs.sum() <= 0:
            raise ValueError("sample_from_datasets needs one non-negative weight per dataset (not all "
                             f"zero). Received {weights!r} for {len(nodes)} datasets.")
        return wrap(SampleNode(nodes, probs, seed, bool(stop_on_empty_dataset)))

    @staticmethod
    def choose_from_datasets(datasets, choice_dataset, stop_on_empty_dataset=True):
        """Element ``k`` comes from ``datasets[choice_k]``, ``choice_dataset`` giving int64 indices.

        Example:
            >>> import companion as tf
            >>> datasets = [tf.data.Dataset.from_tensors("foo").repeat(),
            ...             tf.data.Dataset.from_tensors("bar").repeat()]
            >>> ds = tf.data.Dataset.choose_from_datasets(datasets, tf.data.Dataset.range(2).repeat(2))
            >>> [x.numpy() for x in ds]
            [b'foo', b'bar', b'foo', b'bar']
        """
        nodes = _nodes(datasets, "choose_from_datasets")
        choice = node_of(choice_dataset, "choose_from_datasets")
        spec = choice.spec
        if _structure.is_structure(spec) or spec.dtype != _dtypes.int64 or spec.shape.rank != 0:
            raise TypeError("Invalid `choice_dataset`. Elements of `choice_dataset` must be scalar int64 "
                            f"tensors but are {spec!r}. Use Dataset.range or cast them in a map.")
        return wrap(ChooseNode(nodes, choice, bool(stop_on_empty_dataset)))

    @staticmethod
    def random(seed=None, rerandomize_each_iteration=None, name=None):
        """An infinite dataset of random int64 scalars in ``[0, 2**32)``: TensorFlow's numbers for a
        given seed (the 32-bit words of ``PhiloxRandom`` on the dataset's seeds, `_seed_generator`).

        Each iteration repeats the same numbers unless ``rerandomize_each_iteration=True``.

        Example:
            >>> import companion as tf
            >>> ds = tf.data.Dataset.random(seed=4).take(3)
            >>> [int(x) for x in ds], int(ds.cardinality())
            ([3128586565, 2023892699, 452966358], 3)
        """
        return wrap(RandomNode(SeedGenerator(seed, bool(rerandomize_each_iteration))))


class _Directed(Node):
    kind = "_DirectedInterleaveDataset"

    def _compute_spec(self):
        specs = [n.spec for n in self._data]
        joined = specs[0]
        for other in specs[1:]:
            joined = _spec.most_specific(joined, other, "Dataset.sample_from_datasets")
        return joined

    def cardinality(self):
        if all(n.cardinality() == INFINITE_CARDINALITY for n in self._data):
            return INFINITE_CARDINALITY
        return UNKNOWN_CARDINALITY


class SampleNode(_Directed):
    def __init__(self, nodes, probs, seed, stop_on_empty):
        super().__init__(*nodes)
        self._data, self._probs, self._seed, self._stop = nodes, probs, seed, stop_on_empty
        self._spec_check = self._compute_spec()

    def _iterate(self, ctx):
        rng = np.random.default_rng(self._seed)
        iterators = [n.iterate(ctx) for n in self._data]
        probs = self._probs.copy()
        try:
            while probs.sum() > 0:
                i = int(rng.choice(len(probs), p=probs / probs.sum()))
                try:
                    yield next(iterators[i])
                except StopIteration:
                    if self._stop:
                        return
                    probs[i] = 0.0
        finally:
            for it in iterators:
                it.close()


class ChooseNode(_Directed):
    def __init__(self, nodes, choice, stop_on_empty):
        super().__init__(*nodes, choice)
        self._data, self._choice, self._stop = nodes, choice, stop_on_empty
        self._spec_check = self._compute_spec()

    def _iterate(self, ctx):
        iterators = [n.iterate(ctx) for n in self._data]
        done = set()
        try:
            for index in self._choice.iterate(ctx):
                i = int(np.asarray(index))
                if not 0 <= i < len(iterators):
                    raise InvalidArgumentError(f"choose_from_datasets: choice {i} is out of range for "
                                               f"{len(iterators)} datasets.")
                if i in done:
                    continue
                try:
                    yield next(iterators[i])
                except StopIteration:
                    if self._stop:
                        return
                    done.add(i)
        finally:
            for it in iterators:
                it.close()


class RandomNode(Node):
    kind = "_RandomDataset"

    def __init__(self, seeds):
        super().__init__()
        self._seeds = seeds

    def _compute_spec(self):
        return _spec.TensorSpec([], _dtypes.int64)

    def cardinality(self):
        return INFINITE_CARDINALITY

    def _iterate(self, ctx):
        # the seeds are taken when the iteration starts (TF: when the iterator is made)
        for word in PhiloxWords(self._seeds.next_iterator_seeds()).one_by_one():
            yield np.asarray(word, np.int64)


def _nodes(datasets, what):
    datasets = list(datasets)
    if not datasets:
        raise ValueError(f"{what} needs at least one dataset. Received an empty list.")
    return [node_of(d, what) for d in datasets]
