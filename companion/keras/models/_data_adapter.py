"""Turning ``fit``/``evaluate``/``predict`` inputs (arrays or a Dataset) into batches per epoch."""

import math
import warnings

import numpy as np

from companion._core._convert import constant
from companion._core._tensor import Tensor
from companion._ops import _random
from companion._ops._select import gather
from companion.data import Dataset
from companion.keras.layers._tracking import map_structure
from companion.random._philox import shuffle_blocks, shuffle_order


def unpack_x_y_sample_weight(data):
    """``(x, y, sample_weight)`` from a batch ``x``, ``(x,)``, ``(x, y)`` or ``(x, y, w)``."""
    if isinstance(data, list):
        data = tuple(data)
    if not isinstance(data, tuple):
        return data, None, None
    if len(data) == 1:
        return data[0], None, None
    if len(data) == 2:
        return data[0], data[1], None
    if len(data) == 3:
        return data
    raise ValueError("A batch must be x, (x,), (x, y) or (x, y, sample_weight). Received a tuple of "
                     f"{len(data)} elements.")


def is_dataset(x):
    return isinstance(x, Dataset)


def _packed(x, y, sample_weight):
    """A batch as Keras 3's ``pack_x_y_sample_weight`` makes it: ``x`` alone (a tuple of inputs as
    ``(x,)``) without labels, else ``(x, y)`` or ``(x, y, sample_weight)``."""
    if y is None:
        return (x,) if isinstance(x, (tuple, list)) else x
    return (x, y) if sample_weight is None else (x, y, sample_weight)


class DataHandler:
    """The batches of one epoch, for arrays (sliced and optionally shuffled) or a Dataset.

    Args:
        x, y, sample_weight: arrays, tensors, or lists/dicts of them; or ``x`` a Dataset
            whose elements are ``x``, ``(x, y)`` or ``(x, y, sample_weight)``.
        batch_size: examples per batch for arrays (default 32); not allowed with a Dataset.
        steps: batches per epoch (``steps_per_epoch``); the batches then continue across
            epochs, for arrays and Datasets alike, as Keras 3's ``EpochIterator`` does.
        shuffle: reshuffle arrays before each epoch.
    """

    def __init__(self, x, y=None, sample_weight=None, batch_size=None, steps=None, shuffle=False,
                 caller="fit"):
        self._steps = _checked_steps(steps, caller)
        self._iterator = None
        self._skip_steps = 0
        self._persistent = self._steps is not None
        self.continues = is_dataset(x) and self._persistent  # an iterator that may end with no batch left
        self._seen = 0  # batches read from the persistent iterator since its pass began
        if is_dataset(x):
            self._dataset = _dataset_only(x, y, sample_weight, batch_size, caller)
            self.arrays = None
            count = self._dataset._node.cardinality()
            self._count = count if count >= 0 else None
            self.steps = self._steps or self._count
        else:
            batches = _ArrayBatches(x, y, sample_weight, 32 if batch_size is None else batch_size, shuffle,
                                    caller)
            self.steps = min(self._steps or len(batches), len(batches))
            self._count = len(batches)
            if batches.has_strings():  # strings stay on the host: batches come from a Dataset of the arrays
                self._dataset, self.arrays = batches.as_dataset(), None
            else:
                self._dataset, self.arrays = batches, batches.arrays

    def runner(self, step, gathering_step, strategy=None):
        """What to call on each item `epoch` yields: ``step(batch)`` for a Dataset's batches;
        for arrays, ``gathering_step()(arrays, indices)``, which gathers the batch inside the
        compiled step (one program per batch instead of a gather and a step). Under a
        ``strategy`` the arrays are kept on each of its devices (the steps split each batch
        over the replicas and run through ``strategy.run``)."""
        if self.arrays is None:
            return step
        compiled, cursor = gathering_step()
        place = strategy.replicate if strategy is not None else (lambda t: t)
        arrays, current = map_structure(place, self.arrays), [None, None]

        def run(item):
            order, start, size = item
            if order is not current[0]:  # a new epoch: its order is sent to the device once
                current[0], current[1] = order, place(order)
                cursor.assign(start)
            return compiled(arrays, current[1], size)

        return run

    def skip(self, epochs, steps=0):
        """Replays the input of ``epochs`` epochs, and of the first ``steps`` batches of the next
        epoch, without training on it (`BackupAndRestore` resuming an interrupted ``fit``).

        Arrays draw the skipped epochs' shuffle orders without touching the data; a Dataset is
        read and the batches discarded. The next epochs therefore get the batches they would
        have got in an uninterrupted run.
        """
        for _ in range(epochs):
            if self.arrays is not None and not self._persistent:
                self._dataset.skip_epoch()
            else:
                for _ in self.epoch():
                    pass
        self._skip_steps = steps

    def epoch(self):
        """Yields ``(step, batch)`` for one epoch (for arrays, the batch is its rows' place:
        the epoch's row order, the first row and the size)."""
        first, self._skip_steps = self._skip_steps, 0
        if self.arrays is not None and not self._persistent:
            for step, batch in enumerate(self._dataset.batches(first), start=first):
                if self._steps is not None and step >= self._steps:
                    return
                yield step, batch
            return
        if not self._persistent:
            for step, batch in enumerate(self._dataset):
                if self._steps is not None and step >= self._steps:
                    return
                if step >= first:
                    yield step, batch
            return
        # Keras 3's EpochIterator: the iterator goes on across epochs; when a pass of the data ends
        # mid-epoch that epoch ends short (with a warning) and the next one starts a fresh pass
        if self._iterator is None:
            batches = self._dataset.batches(0) if self.arrays is not None else self._dataset
            self._iterator, self._seen = iter(batches), 0
        for step in range(self._steps):
            if self._count is not None and self._seen >= self._count:
                _ran_out_warning()
                break
            try:
                batch = next(self._iterator)
            except StopIteration:
                _ran_out_warning()
                self._iterator = None
                return
            self._seen += 1
            if step >= first:
                yield step, batch
        if self._count is not None and self._seen >= self._count:
            self._iterator = None


def _ran_out_warning():
    warnings.warn("Your input ran out of data; interrupting training. Make sure that your dataset or "
                  "generator can generate at least `steps_per_epoch * epochs` batches. You may need to use "
                  "the `.repeat()` function when building your dataset.", stacklevel=4)


def _batch_size(value) -> int:
    """`fit`'s `batch_size` as an int: any integer (a NumPy one too, as TF takes it); another type is
    TF's TypeError, a size below 1 a ValueError (TF fails later, on a shape or a slice)."""
    if isinstance(value, bool) or not isinstance(value, int | np.integer):
        raise TypeError(f"`batch_size` must be an integer (the number of examples in a batch). Received: "
                        f"batch_size={value!r} of type {type(value).__name__}")
    if value <= 0:
        raise ValueError(f"`batch_size` must be a positive integer. Received: batch_size={value!r}")
    return int(value)


class _ArrayBatches:
    """Arrays kept on the device once; each epoch yields the row indices of its batches.

    Shuffled as TF's Keras shuffles arrays: in a tf.data function, by one ``RandomShuffle`` op
    whose kernel starts afresh every epoch. Under a global seed that op's seeds are the global
    seed and 0 (the graph's first unseeded random op), so every epoch, and every ``fit``, gets the
    same order, TF's; ``shuffle="batch"`` shuffles the rows within each batch instead, as Keras does.
    Without a global seed (TF: random each epoch) a fresh order each epoch comes from companion's
    random stream."""

    def __init__(self, x, y, sample_weight, batch_size, shuffle, caller):
        if x is None:
            raise ValueError(f"{caller}: `x` is required (arrays or a companion.data.Dataset). "
                             "Received: x=None")
        batch_size = _batch_size(batch_size)
        if sample_weight is not None and y is None:
            raise ValueError(f"{caller}: `sample_weight` needs `y`. Received y=None.")
        if hasattr(x, "__next__") and not hasattr(x, "shape"):
            raise ValueError(f"{caller}: unrecognized data type: x={x!r} (of type {type(x).__name__}). Pass "
                             "arrays, a companion.data.Dataset, a keras.utils.PyDataset or a Python "
                             "generator (a function with `yield`) of (x, y) batches.")
        x, y, sample_weight = (map_structure(_as_array, _tupled(v)) for v in (x, y, sample_weight))
        self.count = _num_examples([v for v in _leaves((x, y, sample_weight)) if v is not None], caller,
                                   (x, y, sample_weight))
        element = _packed(x, y, sample_weight)
        self.arrays = map_structure(lambda v: v if isinstance(v, Tensor) else constant(v), element)
        self.batch_size, self._shuffle, self._rng, self._tf_cached = batch_size, shuffle, None, None

    def __len__(self):
        return -(-self.count // self.batch_size)

    def has_strings(self):
        """Whether an array holds strings (they cannot be gathered inside a compiled step)."""
        return any(leaf.dtype.name == "string" for leaf in _leaves(self.arrays) if isinstance(leaf, Tensor))

    def as_dataset(self):
        """The same batches as a Dataset: shuffled each epoch (seeded like the arrays' orders)."""
        tf_order = self._tf_order()
        if tf_order is not None:
            order = constant(tf_order)
            return Dataset.from_tensor_slices(map_structure(lambda a: gather(a, order), self.arrays)).batch(
                self.batch_size)
        dataset = Dataset.from_tensor_slices(self.arrays)
        if self._shuffle:
            seed = int(_random.next_host_key(None)[-1]) % (2 ** 31)
            dataset = dataset.shuffle(self.count, seed=seed)
        return dataset.batch(self.batch_size)

    def batches(self, first=0):
        """Per batch from batch ``first`` on: (this epoch's row order as a device Tensor, the
        batch's first row in that order, the batch's size)."""

        order = constant(self._order())
        for start in range(first * self.batch_size, self.count, self.batch_size):
            yield order, start, min(self.batch_size, self.count - start)

    def skip_epoch(self):
        """Draws one epoch's order and drops it (the next epoch gets the order after it)."""
        self._order()

    def _tf_order(self):
        """TF's order for this fit's epochs under a global seed, else None."""
        seeds = _random.tf_graph_seeds() if self._shuffle and self.count > 1 else None
        if seeds is None:
            return None
        if self._tf_cached is None or self._tf_cached[0] != seeds:  # drawn once per seed
            self._tf_cached = (seeds, self._drawn(lambda size, block: shuffle_order(size, *seeds, block)))
        return self._tf_cached[1]

    def _drawn(self, shuffled):
        """The epoch's order from ``shuffled(size, first Philox block)``: of all rows, or (Keras's
        ``shuffle="batch"``, a map over the batches of indices) of each batch's rows, one
        ``RandomShuffle`` kernel moving on by a block per four draws from batch to batch."""
        if self._shuffle != "batch":
            return shuffled(self.count, 0)
        parts, block = [], 0
        for start in range(0, self.count, self.batch_size):
            size = min(self.batch_size, self.count - start)
            parts.append(start + (shuffled(size, block) if size > 1 else np.zeros(1, np.int64)))
            block += shuffle_blocks(size)
        return np.concatenate(parts)

    def _order(self):
        if not self._shuffle:
            return np.arange(self.count, dtype=np.int64)
        tf_order = self._tf_order()
        if tf_order is not None:
            return tf_order
        if self._rng is None:
            self._rng = np.random.default_rng([int(w) for w in _random.next_host_key(None)])
        return self._drawn(lambda size, block: self._rng.permutation(size))


def train_validation_split(arrays, validation_split):
    """Splits arrays (x, y, sample_weight) into the first ``1 - split`` and the last ``split``."""
    if not 0 < validation_split < 1:
        raise ValueError("`validation_split` must be a float between 0 and 1. Received: "
                         f"validation_split={validation_split!r}")
    leaves = [v for v in _leaves(arrays) if v is not None]
    n = _num_examples(leaves, "fit")
    cut = int(math.floor(n * (1.0 - validation_split)))
    if cut in (0, n):
        raise ValueError(f"validation_split={validation_split} leaves no data for training or for "
                         f"validation with {n} examples. Use a split giving both at least one example.")
    train = map_structure(lambda v: None if v is None else np.asarray(v)[:cut], arrays)
    val = map_structure(lambda v: None if v is None else np.asarray(v)[cut:], arrays)
    return train, val


def _dataset_only(x, y, sample_weight, batch_size, caller):
    for name, value in (("y", y), ("sample_weight", sample_weight)):
        if value is not None:
            raise ValueError(f"{caller}: `{name}` must not be given when `x` is a Dataset (the dataset "
                             f"yields (x, y[, sample_weight]) tuples). Received: {name}={value!r}")
    return x  # a `batch_size` is ignored, as Keras 3 ignores it for datasets and generators


def _tupled(value):
    """Lists of arrays as tuples: in tf.data a list is one tensor, in Keras a list of inputs."""
    if isinstance(value, list) and value and hasattr(value[0], "shape"):
        return tuple(value)
    if isinstance(value, dict):
        return {k: _tupled(v) for k, v in value.items()}
    return value


def _as_array(value):
    if value is None or isinstance(value, Tensor) or getattr(value, "_is_variable", False):
        return value
    array = np.asarray(value)
    if array.dtype == np.float64:
        array = array.astype(np.float32)  # Keras feeds float32 unless the model says otherwise
    return array


def _leaves(structure):
    found = []
    map_structure(found.append, structure)
    return found


def _num_examples(leaves, caller, xy=None):
    sizes = {int(np.shape(v)[0]) if np.ndim(v) else None for v in leaves}
    if None in sizes:
        raise ValueError(f"{caller}: inputs must have a batch axis (rank ≥ 1). Received shapes "
                         f"{[tuple(np.shape(v)) for v in leaves]}.")
    if len(sizes) > 1:
        raise ValueError(_ambiguous_cardinality(leaves, xy))
    return sizes.pop()


def _ambiguous_cardinality(leaves, xy):
    """Keras 3's message: the first dimension of each array, by argument."""
    message = "Data cardinality is ambiguous. Make sure all arrays contain the same number of samples."
    for label, value in zip(("x", "y", "sample_weight"), xy if xy is not None else (leaves,)):
        if value is not None:
            sizes = ", ".join(str(int(np.shape(v)[0])) for v in _leaves(value) if v is not None)
            message += f"'{label}' sizes: {sizes}\n"
    return message


def _checked_steps(steps, caller):
    if steps is None:
        return None
    if isinstance(steps, bool) or not isinstance(steps, int | np.integer) or steps <= 0:
        raise ValueError(f"{caller}: the number of steps must be a positive integer or None. Received: "
                         f"{steps!r}")
    return int(steps)


def as_batch_input(value):
    """Arrays (or lists/dicts of them) of one batch as companion Tensors (float64 → float32)."""

    def convert(v):
        if v is None or isinstance(v, Tensor) or getattr(v, "_is_variable", False):
            return v
        return constant(_as_array(v))

    if isinstance(value, (list, tuple)) and value and not isinstance(value[0], (list, tuple, dict)) \
            and not hasattr(value[0], "shape"):
        return convert(value)  # a plain Python list is one array, as in Keras
    return map_structure(convert, value)
