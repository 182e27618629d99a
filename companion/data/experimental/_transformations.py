"""The older function forms of dataset transformations in ``tf.data.experimental``: each returns
a function of a dataset for ``dataset.apply`` (or builds a dataset), as TF's do, and delegates to
the `Dataset` method of the same meaning."""

import numpy as np

from companion._core import _dtypes
from companion._core._convert import convert_to_tensor
from companion._core._errors import InvalidArgumentError, OutOfRangeError
from companion.data import _structure
from companion.data._dataset import Dataset
from companion.data._transforms._assert_cardinality import assert_cardinality as _assert_cardinality


def unique():
    """``dataset.apply(unique())``: each element once, in first-seen order (``Dataset.unique``)."""
    return lambda dataset: dataset.unique()


def unbatch():
    """``dataset.apply(unbatch())``: the batches split into their elements (``Dataset.unbatch``)."""
    return lambda dataset: dataset.unbatch()


def dense_to_ragged_batch(batch_size, drop_remainder=False, row_splits_dtype=_dtypes.int64):
    """``dataset.apply(dense_to_ragged_batch(n))``: batches whose partly known components are
    RaggedTensors (``Dataset.ragged_batch``)."""
    return lambda dataset: dataset.ragged_batch(batch_size, drop_remainder, row_splits_dtype)


def enumerate_dataset(start=0):
    """``dataset.apply(enumerate_dataset(start))``: ``(index, element)`` pairs (``Dataset.enumerate``)."""
    return lambda dataset: dataset.enumerate(start)


def scan(initial_state, scan_func):
    """``dataset.apply(scan(initial_state, scan_func))`` (``Dataset.scan``)."""
    return lambda dataset: dataset.scan(initial_state, scan_func)


def take_while(predicate):
    """``dataset.apply(take_while(predicate))`` (``Dataset.take_while``)."""
    return lambda dataset: dataset.take_while(predicate)


def group_by_window(key_func, reduce_func, window_size=None, window_size_func=None):
    """``dataset.apply(group_by_window(...))`` (``Dataset.group_by_window``)."""
    return lambda dataset: dataset.group_by_window(key_func, reduce_func, window_size=window_size,
                                                   window_size_func=window_size_func)


def bucket_by_sequence_length(element_length_func, bucket_boundaries, bucket_batch_sizes, padded_shapes=None,
                              padding_values=None, pad_to_bucket_boundary=False, no_padding=False,
                              drop_remainder=False):
    """``dataset.apply(bucket_by_sequence_length(...))`` (``Dataset.bucket_by_sequence_length``)."""
    return lambda dataset: dataset.bucket_by_sequence_length(
        element_length_func, bucket_boundaries, bucket_batch_sizes, padded_shapes=padded_shapes,
        padding_values=padding_values, pad_to_bucket_boundary=pad_to_bucket_boundary, no_padding=no_padding,
        drop_remainder=drop_remainder)


def shuffle_and_repeat(buffer_size, count=None, seed=None):
    """``dataset.apply(shuffle_and_repeat(buffer_size, count, seed))``: ``shuffle(buffer_size, seed)``
    then ``repeat(count)``, as TF documents it."""
    return lambda dataset: dataset.shuffle(buffer_size, seed=seed).repeat(count)


def map_and_batch(map_func, batch_size, num_parallel_batches=None, drop_remainder=False,
                  num_parallel_calls=None):
    """``dataset.apply(map_and_batch(...))``: ``map(map_func)`` then ``batch(batch_size)``."""
    return lambda dataset: dataset.map(map_func, num_parallel_calls=num_parallel_calls).batch(
        batch_size, drop_remainder=drop_remainder)


def parallel_interleave(map_func, cycle_length, block_length=1, sloppy=False, buffer_output_elements=None,
                        prefetch_input_elements=None):
    """``dataset.apply(parallel_interleave(...))``: ``interleave(map_func, cycle_length, block_length)``
    (deterministic order, as with ``sloppy=False``)."""
    return lambda dataset: dataset.interleave(map_func, cycle_length=cycle_length, block_length=block_length)


def sample_from_datasets(datasets, weights=None, seed=None, stop_on_empty_dataset=False):
    """``Dataset.sample_from_datasets`` (the older function form)."""
    return Dataset.sample_from_datasets(datasets, weights=weights, seed=seed,
                                        stop_on_empty_dataset=stop_on_empty_dataset)


def choose_from_datasets(datasets, choice_dataset, stop_on_empty_dataset=True):
    """``Dataset.choose_from_datasets`` (the older function form)."""
    return Dataset.choose_from_datasets(datasets, choice_dataset, stop_on_empty_dataset=stop_on_empty_dataset)


def get_single_element(dataset):
    """``dataset.get_single_element()`` (the older function form)."""
    return dataset.get_single_element()


def Counter(start=0, step=1, dtype=_dtypes.int64):  # noqa: N802 - TF's name
    """``Dataset.counter(start, step, dtype)``: ``start, start + step, ...`` for ever."""
    return Dataset.counter(start, step, dtype)


class RandomDatasetV2(Dataset):
    """``Dataset.random(seed)``: pseudorandom int64 scalars for ever (a `Dataset` subclass, as in TF)."""

    def __init__(self, seed=None, name=None):
        super().__init__(Dataset.random(seed))


RandomDataset = RandomDatasetV2  # TF's name for its class RandomDatasetV2


def from_list(elements):
    """A dataset of the given elements (each a tensor or a nested structure of them, all alike).

    Example:
        >>> import companion as tf
        >>> [int(x) for x in tf.data.experimental.from_list([1, 2, 3])]
        [1, 2, 3]
    """
    if not elements:
        raise ValueError("from_list needs at least one element (it reads the structure from them). "
                         "Received an empty list.")
    def stacked(*parts):  # each part converted as TF converts a value (1 -> int32, 1.0 -> float32)
        return np.stack([np.asarray(convert_to_tensor(part).numpy()) for part in parts])

    return Dataset.from_tensor_slices(_structure.map_structure(stacked, *elements))



def assert_cardinality(expected_cardinality):
    """``dataset.apply(assert_cardinality(n))``: the dataset declares ``n`` elements (its
    ``cardinality()``); iterating raises `FailedPreconditionError` when it has another count.

    Example:
        >>> import companion as tf
        >>> ds = tf.data.Dataset.range(5).filter(lambda x: x < 3)
        >>> int(ds.apply(tf.data.experimental.assert_cardinality(3)).cardinality())
        3
    """
    return lambda dataset: _assert_cardinality(dataset, expected_cardinality)


def get_structure(dataset_or_iterator):
    """The element spec of a dataset or an iterator (``.element_spec``)."""
    spec = getattr(dataset_or_iterator, "element_spec", None)
    if spec is None:
        raise TypeError(f"get_structure takes a Dataset or an iterator of one. Received: "
                        f"{type(dataset_or_iterator).__name__}")
    return spec


def at(dataset, index):
    """The element at position ``index`` of ``dataset``.

    Raises:
        OutOfRangeError (an IndexError): the dataset has no element ``index``.
    """
    position = int(getattr(index, "numpy", lambda: index)())
    if position < 0:
        raise InvalidArgumentError(f"at: index must be >= 0. Received: {position}")
    for element in dataset.skip(position).take(1):
        return element
    raise OutOfRangeError(f"at: the dataset has no element {position} (it has fewer elements).")


def copy_to_device(target_device, source_device="/cpu:0"):
    """``dataset.apply(copy_to_device(device))``: the elements unchanged (companion places tensors on
    the default device when they are used)."""
    return lambda dataset: dataset


def prefetch_to_device(device, buffer_size=None):
    """``dataset.apply(prefetch_to_device(device))``: ``prefetch(buffer_size)`` (elements move to the
    device when used)."""
    return lambda dataset: dataset.prefetch(buffer_size if buffer_size is not None else -1)
