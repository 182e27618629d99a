"""`PyDataset` (``Sequence`` in TF 2's Keras): batches from Python indexing, and its conversion to a
`Dataset` for ``fit``/``evaluate``/``predict``."""

import itertools
import random
import types

import numpy as np

from companion._core._tensor_spec import TensorSpec


class PyDataset:
    """Base class of Python batch sources: subclasses define ``__len__`` (batches per epoch) and
    ``__getitem__(index)`` returning a batch (``x``, ``(x, y)`` or ``(x, y, sample_weight)``); ``fit``
    reads the batches in order each epoch and calls ``on_epoch_end`` after it.

    ``workers``, ``use_multiprocessing`` and ``max_queue_size`` are kept for Keras's signature;
    companion reads the batches on one thread.

    Example:
        >>> import numpy as np, companion as tf
        >>> class Batches(tf.keras.utils.PyDataset):
        ...     def __len__(self):
        ...         return 3
        ...     def __getitem__(self, index):
        ...         return np.full((2, 1), index, np.float32), np.zeros((2, 1), np.float32)
        >>> model = tf.keras.Sequential([tf.keras.layers.Input((1,)), tf.keras.layers.Dense(1)])
        >>> model.compile("sgd", "mse")
        >>> len(model.fit(Batches(), epochs=2, verbose=0).history["loss"])
        2
    """

    def __init__(self, workers=1, use_multiprocessing=False, max_queue_size=10):
        self._workers = workers
        self._use_multiprocessing = use_multiprocessing
        self._max_queue_size = max_queue_size

    workers = property(lambda self: self._workers)
    use_multiprocessing = property(lambda self: self._use_multiprocessing)
    max_queue_size = property(lambda self: self._max_queue_size)

    def __getitem__(self, index):
        raise NotImplementedError(f"{type(self).__name__} must define __getitem__(index) returning a batch.")

    def __len__(self):
        raise NotImplementedError(f"{type(self).__name__} must define __len__() returning the number of "
                                  "batches per epoch.")

    @property
    def num_batches(self):
        return len(self)

    def on_epoch_begin(self):
        """Called before each epoch's first batch."""

    def on_epoch_end(self):
        """Called after each epoch's last batch (e.g. to reshuffle the samples)."""


Sequence = PyDataset


def _standardize(batch):
    if isinstance(batch, dict):
        return batch
    if isinstance(batch, np.ndarray):
        batch = (batch,)
    if isinstance(batch, list):
        batch = tuple(batch)
    if not isinstance(batch, tuple) or len(batch) not in (1, 2, 3):
        raise ValueError("PyDataset.__getitem__() must return a tuple (inputs,), (inputs, targets) or "
                         "(inputs, targets, sample_weights), or a dict. "
                         f"Received: {str(batch)[:100]}... of type {type(batch).__name__}")
    return batch


def _merged_spec(*leaves):
    """A TensorSpec every peeked batch fits: dimensions that differ and the batch axis are None."""
    arrays = [np.asarray(leaf) for leaf in leaves]
    if arrays[0].ndim < 1 or any(array.ndim != arrays[0].ndim for array in arrays):
        raise ValueError("A PyDataset's batches must be arrays of rank >= 1 with the same rank in every "
                         f"batch. Received shapes: {[array.shape for array in arrays]}")
    shape = [None] + [dims[0] if len(set(dims)) == 1 else None
                      for dims in zip(*(array.shape[1:] for array in arrays))]
    dtype = "string" if arrays[0].dtype.kind in "OUS" else arrays[0].dtype
    return TensorSpec(shape, dtype)


def as_dataset(source, shuffle=False):
    """``source`` itself unless it is a `PyDataset` or a Python generator. A PyDataset becomes a Dataset
    of its batches, in index order (a fresh random order each epoch when ``shuffle``, drawn from
    Python's `random` as Keras does), calling its epoch hooks around each pass. As in Keras 3, the
    first two batches are read once more to learn the element spec. A generator: see
    `_generator_dataset`."""
    if isinstance(source, types.GeneratorType):
        return _generator_dataset(source)
    if not isinstance(source, PyDataset):
        return source
    # deferred: companion.data is a lazy package
    from companion.data import Dataset
    from companion.nest import map_structure

    count = len(source)
    if count < 1:
        raise ValueError(f"{type(source).__name__} has no batches (len() is {count}); a PyDataset's "
                         "__len__ must return the number of batches per epoch.")
    peeked = [_standardize(source[index]) for index in range(min(2, count))]
    signature = map_structure(_merged_spec, *peeked)

    def batches():
        source.on_epoch_begin()
        order = list(range(count))
        if shuffle:
            random.shuffle(order)
        for index in order:
            yield map_structure(np.asarray, _standardize(source[index]))
        source.on_epoch_end()

    dataset = Dataset._from_iterable_factory(batches, signature, cardinality=count, kind="PyDataset")
    dataset._py_dataset = source
    return dataset


def start_pass(data):
    """Keras 3 resets a PyDataset's epoch (calls ``on_epoch_end``) as ``fit`` and each ``evaluate``
    begin; companion does the same so a subclass's hooks run as many times as under Keras."""
    source = getattr(data, "_py_dataset", None)
    if source is not None:
        source.on_epoch_end()


def _generator_dataset(generator):
    """A Dataset of a Python generator's batches, as Keras 3's ``GeneratorDataAdapter`` reads one: its
    first two batches are taken to learn the element spec (each a tuple ``(x,)``, ``(x, y)`` or
    ``(x, y, sample_weight)``), and every pass of the Dataset yields those two and then whatever the
    generator has left (so a finite generator's later epochs get the two kept batches)."""
    # deferred: companion.data is a lazy package
    from companion.data import Dataset
    from companion.nest import map_structure

    first = list(itertools.islice(generator, 2))
    if not first:
        raise ValueError("When passing a Python generator to a Keras model, the generator must yield at "
                         "least one batch. Received an empty generator.")
    if not isinstance(first[0], tuple):
        raise ValueError("When passing a Python generator to a Keras model, the generator must return a "
                         "tuple, either (input,) or (inputs, targets) or (inputs, targets, sample_weights). "
                         f"Received: {first[0]}")
    signature = map_structure(_merged_spec, *first)

    def batches():
        for batch in itertools.chain(first, generator):
            yield map_structure(np.asarray, batch)

    return Dataset._from_iterable_factory(batches, signature, kind="generator")
