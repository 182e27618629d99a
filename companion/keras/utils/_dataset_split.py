"""`split_dataset`: arrays, tuples/lists of arrays, or a `Dataset`, split in two Datasets (Keras 3).

As in Keras, the data is read into memory sample by sample (meant for small datasets), shuffled
with Python's ``random`` seeded by ``seed`` (so the same seed gives TensorFlow's split), then
the first ``left_size`` samples and the last ``right_size`` samples become the two Datasets.
"""

import random
import time
import warnings

import numpy as np

from companion import nest
from companion._core._convert import is_tensor
from companion.data import AUTOTUNE, Dataset


def split_dataset(dataset, left_size=None, right_size=None, shuffle=False, seed=None, preferred_backend=None):
    """Splits a dataset into a left and a right part (e.g. train / test) of ``left_size`` and
    ``right_size`` samples.

    Args:
        dataset: a NumPy array, a list or tuple of NumPy arrays of the same length (samples are
            tuples of their rows), or a `Dataset` (a batched one is unbatched, split, and both
            parts batched again with its batch size).
        left_size: a float in ``(0, 1)`` (a fraction, rounded to samples), an int (a number of
            samples), or None (the complement of ``right_size``).
        right_size: as ``left_size``; None is the complement of ``left_size``.
        shuffle: shuffle the samples before splitting, with ``random.seed(seed)`` and
            ``random.shuffle`` as Keras (this reseeds Python's global ``random``).
        seed: the shuffle's seed (None: a random one).
        preferred_backend: accepted for Keras's signature; ``"torch"`` is not available.

    Returns:
        A tuple ``(left, right)`` of Datasets.

    Raises:
        TypeError: ``dataset`` is of another type, or a size is neither int, float nor None.
        ValueError: the sizes are both None, out of range, add up to more than the data, or leave
            a part empty; the dataset is empty or its arrays differ in length.

    Example:
        >>> import numpy as np
        >>> import companion as tf
        >>> left, right = tf.keras.utils.split_dataset(np.arange(10.0), left_size=0.8)
        >>> int(left.cardinality()), int(right.cardinality())
        (8, 2)
        >>> [float(x) for x in right]
        [8.0, 9.0]
    """
    if preferred_backend == "torch":
        raise NotImplementedError("split_dataset(preferred_backend='torch') returns torch datasets, which "
                                  "companion does not provide; leave preferred_backend=None for Datasets.")
    kind = _kind(dataset)
    if kind is None:
        raise TypeError("split_dataset expects a companion.data.Dataset, a NumPy array, or a list/tuple of "
                        f"NumPy arrays. Received: {type(dataset).__name__}")
    if left_size is None and right_size is None:
        raise ValueError("split_dataset needs `left_size` or `right_size` (or both). Received: "
                         "left_size=None and right_size=None")
    samples = _samples(dataset, kind)
    if shuffle:
        if seed is None:
            seed = random.randint(0, int(1e6))
        random.seed(seed)
        random.shuffle(samples)
    left_size, right_size = _rescale_sizes(left_size, right_size, len(samples))
    left = Dataset.from_tensor_slices(_restore(samples[:left_size], kind))
    right = Dataset.from_tensor_slices(_restore(samples[-right_size:], kind))
    batch_size = _batch_size(dataset) if kind == "dataset" else None
    if batch_size is not None:
        left, right = left.batch(batch_size), right.batch(batch_size)
    return left.prefetch(AUTOTUNE), right.prefetch(AUTOTUNE)


def _kind(dataset):
    if isinstance(dataset, (tuple, list)):
        return type(dataset).__name__
    if isinstance(dataset, np.ndarray):
        return "array"
    if isinstance(dataset, Dataset):
        return "dataset"
    return None


def _samples(dataset, kind):
    """The samples as a list: rows of an array, tuples of rows of a list/tuple of arrays, or the
    (unbatched) elements of a Dataset as NumPy values."""
    if kind in ("tuple", "list"):
        _check_arrays(dataset, kind)
        iterator = zip(*dataset)
    elif kind == "dataset":
        if _batch_size(dataset) is not None:
            dataset = dataset.unbatch()
        iterator = (nest.map_structure(_numpy, element) for element in dataset)
    else:
        iterator = iter(dataset)
    samples, start = [], time.time()
    first_shape, warned = None, False
    for index, sample in enumerate(iterator):
        if index == 0:
            first_shape = np.shape(sample) if isinstance(sample, np.ndarray) and kind == "dataset" else None
        elif first_shape is not None and np.shape(sample) != first_shape:
            raise ValueError(f"All samples of `dataset` must have the same shape. Expected shape "
                             f"{first_shape}, received shape {np.shape(sample)} at index {index - 1}")
        if not warned and index % 10 == 1 and time.time() - start > 10:
            warnings.warn("The dataset is taking longer than 10 seconds to iterate over. split_dataset is "
                          "meant for small in-memory datasets (e.g. < 10,000 samples).", ResourceWarning,
                          stacklevel=3)
            warned = True
        samples.append(sample)
    if not samples:
        raise ValueError("split_dataset received an empty dataset. `dataset` must be a non-empty NumPy "
                         "array, list/tuple of NumPy arrays, or Dataset.")
    return samples


def _check_arrays(arrays, kind):
    if not arrays:
        raise ValueError(f"split_dataset received an empty {kind}. Pass a non-empty {kind} of NumPy arrays.")
    length = None
    for index, array in enumerate(arrays):
        if not isinstance(array, np.ndarray):
            raise ValueError(f"split_dataset expects a {kind} of NumPy arrays. Received: "
                             f"{type(array).__name__} at index {index}")
        if length is None:
            length = array.shape[0] if array.ndim else None
        elif array.shape[0] != length:
            raise ValueError(f"split_dataset received a {kind} of NumPy arrays of different lengths: "
                             f"{length} at index 0, {array.shape[0]} at index {index}. They must have the "
                             "same length.")


def _numpy(value):
    return value.numpy() if is_tensor(value) else np.asarray(value)


def _restore(samples, kind):
    """One split as ``from_tensor_slices`` takes it: the samples stacked leaf by leaf in the structure of
    the first (lists become tuples); an array's rows as TensorFlow converts a list of them."""
    if kind == "array":
        return _as_tensorflow_converts(samples)
    leaves = [nest.flatten(sample) for sample in samples]
    stacked = [np.array(column) for column in zip(*leaves)]
    packed = nest.pack_sequence_as(samples[0], stacked)
    return _tuples(packed)


def _tuples(value):
    if isinstance(value, (list, tuple)):
        return tuple(_tuples(item) for item in value)
    if isinstance(value, dict):
        return {key: _tuples(item) for key, item in value.items()}
    return value


def _as_tensorflow_converts(rows):
    """``rows`` (a list of an array's rows) stacked with the dtype TensorFlow gives the list: rows that are
    arrays keep theirs; NumPy integer scalars become int32 (int64 when one does not fit), complex
    scalars complex128, as Python numbers do."""
    stacked = np.array(rows)
    if isinstance(rows[0], np.ndarray):
        return stacked
    if stacked.dtype.kind in "iu":
        fits = stacked.min() >= -2**31 and stacked.max() < 2**31
        return stacked.astype("int32" if fits else "int64")
    if stacked.dtype.kind == "c":
        return stacked.astype("complex128")
    return stacked


def _batch_size(dataset):
    """TensorFlow's ``dataset._batch_size``: the size of the ``batch``/``padded_batch`` a Dataset ends with,
    else None (Keras's ``is_batched``/``get_batch_size``)."""
    node = getattr(dataset, "_node", None)  # companion.data keeps a Dataset's last transformation here
    if getattr(node, "kind", None) in ("_BatchDataset", "_ParallelBatchDataset", "_PaddedBatchDataset"):
        return node._size
    return None


def _rescale_sizes(left_size, right_size, total_length):
    """Keras's ``_rescale_dataset_split_sizes``: the checked sizes as sample counts."""
    left_type, right_type = type(left_size), type(right_size)
    left_bad = left_size is not None and left_type not in (int, float)
    right_bad = right_size is not None and right_type not in (int, float)
    if left_bad or right_bad:
        names = [name for name, bad in (("left_size", left_bad), ("right_size", right_bad)) if bad]
        raise TypeError(f"Invalid type of `{'` and `'.join(names)}`. Expected int, float or None. Received: "
                        f"type(left_size)={left_type.__name__}, type(right_size)={right_type.__name__}")
    if left_size == 0 and right_size == 0:
        raise ValueError("Both `left_size` and `right_size` are zero. At least one of the split sizes must "
                         "be non-zero.")
    for name, size, kind in (("left_size", left_size, left_type), ("right_size", right_size, right_type)):
        if (kind is int and not 0 < size < total_length) or (kind is float and not 0 < size < 1):
            raise ValueError(f"`{name}` must be a positive integer smaller than {total_length} (the number "
                             f"of samples), or a float within (0, 1). Received: {name}={size}")
    if left_type is right_type is float and left_size + right_size > 1:
        raise ValueError(f"The sum of `left_size` and `right_size` is greater than 1. It must be less than "
                         f"or equal to 1. Received: left_size={left_size}, right_size={right_size}")
    left = round(left_size * total_length) if left_type is float else left_size
    right = round(right_size * total_length) if right_type is float else right_size
    if left is None:
        left = total_length - right
    elif right is None:
        right = total_length - left
    if left + right > total_length:
        raise ValueError(f"The sum of `left_size` and `right_size` must not be greater than the number of "
                         f"samples, {total_length}. Received: left_size + right_size = {left + right}")
    for split, side in ((left, "left"), (right, "right")):
        if split == 0:
            raise ValueError(f"With {total_length} samples, left_size={left} and right_size={right} leave "
                             f"the {side} split empty. Adjust left_size or right_size.")
    return int(left), int(right)
