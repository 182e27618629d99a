"""`Builder`: the base of every data set: its splits as NumPy arrays, its `DatasetInfo`, its Datasets."""

import numpy as np

from companion._core._convert import constant
from companion._ops import _random
from companion.data import Dataset
from companion.datasets import _info, _splits

_BLOCK = 1000  # examples per block when shuffle_files=True ("files" of an in-memory set)


class Builder:
    """One data set: subclasses set ``name``/``description``/``supervised_keys`` and write
    ``_generate()`` (split name → dict of NumPy arrays) and ``_features()``.

    Args:
        data_dir: where the set's files are (for sets read from files).
        **config: the set's options (e.g. ``image_size`` for ``shapes``).
    """

    name = ""
    description = ""
    homepage = ""
    citation = ""
    supervised_keys = ("image", "label")

    def __init__(self, data_dir=None, **config):
        self.data_dir = data_dir
        self.config = config
        self._arrays = None

    @property
    def info(self):
        """The `DatasetInfo`: features, split sizes, description."""
        sizes = {name: len(arrays[self.supervised_keys[1]]) for name, arrays in self.splits().items()}
        return _info.make_info(self.name, self.description, self._features(), sizes, self.supervised_keys,
                               self.homepage, self.citation, self._metadata())

    def splits(self):
        """Every split as a dict of NumPy arrays, generated or read once per builder."""
        if self._arrays is None:
            self._arrays = self._generate()
        return self._arrays

    def as_arrays(self, split):
        """The examples of ``split`` (a split spec such as ``'train[:80%]'``) as a dict of NumPy arrays."""
        splits = self.splits()
        sizes = {name: len(arrays[self.supervised_keys[1]]) for name, arrays in splits.items()}
        instructions = _splits.resolve(split, sizes)
        keys = list(next(iter(splits.values())))
        return {key: np.concatenate([splits[i.name][key][i.start:i.stop] for i in instructions])
                for key in keys}

    def as_dataset(self, split, as_supervised=False, shuffle_files=False, batch_size=None):
        """``split`` as a `companion.data.Dataset` (or, with ``batch_size=-1``, as whole tensors)."""
        arrays = self.as_arrays(split)
        if shuffle_files:
            arrays = _shuffle_blocks(arrays)
        if as_supervised:
            arrays = tuple(arrays[k] for k in self.supervised_keys)
        if batch_size == -1:
            return _to_tensors(arrays)

        dataset = Dataset.from_tensor_slices(arrays)
        return dataset if batch_size is None else dataset.batch(batch_size)

    def _generate(self):
        raise NotImplementedError

    def _features(self):
        raise NotImplementedError

    def _metadata(self):
        return {}

    def __repr__(self):
        options = "".join(f", {k}={v!r}" for k, v in self.config.items())
        return f"<{type(self).__name__} {self.name!r}{options}>"


def _shuffle_blocks(arrays):
    """The examples reordered block by block (blocks of 1,000 in a random order), as tfds shuffles files."""

    first = next(iter(arrays.values()))
    blocks = np.arange(0, len(first), _BLOCK)
    seed = _random.global_seed_or(None)
    order = np.concatenate([np.arange(s, min(s + _BLOCK, len(first)))
                            for s in np.random.default_rng(seed).permutation(blocks)] or [np.zeros(0, int)])
    return {key: value[order] for key, value in arrays.items()}


def _to_tensors(arrays):
    if isinstance(arrays, tuple):
        return tuple(constant(a) for a in arrays)
    return {key: constant(value) for key, value in arrays.items()}
