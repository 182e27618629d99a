"""``companion.data.experimental``: AUTOTUNE, save/load, cardinality and the option classes (TF names).

Also `trace` and `trace_span`, companion's pipeline timeline (an extension; TF has no public equivalent).
"""

from companion.data._autotune import AUTOTUNE, INFINITE_CARDINALITY, UNKNOWN_CARDINALITY
from companion.data._optional import Optional
from companion.data._options import (
    AutoShardPolicy,
    AutotuneOptions,
    DistributeOptions,
    OptimizationOptions,
    ThreadingOptions,
)
from companion.data._save import load, save
from companion.data._trace import Span, Timeline, trace, trace_span
from companion.data.experimental._csv import CsvDataset, make_csv_dataset
from companion.data.experimental._transformations import (
    Counter,
    RandomDataset,
    assert_cardinality,
    at,
    bucket_by_sequence_length,
    choose_from_datasets,
    copy_to_device,
    dense_to_ragged_batch,
    enumerate_dataset,
    from_list,
    get_single_element,
    get_structure,
    group_by_window,
    map_and_batch,
    parallel_interleave,
    prefetch_to_device,
    sample_from_datasets,
    scan,
    shuffle_and_repeat,
    take_while,
    unbatch,
    unique,
)


def cardinality(dataset):
    """``dataset.cardinality()`` (the older function form).

    Example:
        >>> import companion as tf
        >>> int(tf.data.experimental.cardinality(tf.data.Dataset.range(3)))
        3
    """
    return dataset.cardinality()


def ignore_errors(log_warning=False):
    """The transformation form of `Dataset.ignore_errors`, for ``dataset.apply(...)``."""
    return lambda dataset: dataset.ignore_errors(log_warning)


def get_next_as_optional(iterator):
    """``iterator.get_next_as_optional()`` (the older function form): the next element as an `Optional`."""
    return iterator.get_next_as_optional()


__all__ = ["CsvDataset", "assert_cardinality", "at", "copy_to_device", "get_structure", "ignore_errors",
           "make_csv_dataset", "prefetch_to_device",
           "AUTOTUNE", "INFINITE_CARDINALITY", "UNKNOWN_CARDINALITY", "AutoShardPolicy", "AutotuneOptions",
           "DistributeOptions", "OptimizationOptions", "Optional", "Span", "ThreadingOptions", "Timeline",
           "cardinality", "get_next_as_optional", "load", "save", "trace", "trace_span", "Counter",
           "RandomDataset", "bucket_by_sequence_length", "choose_from_datasets", "dense_to_ragged_batch",
           "enumerate_dataset",
           "from_list", "get_single_element", "group_by_window", "map_and_batch", "parallel_interleave",
           "sample_from_datasets", "scan", "shuffle_and_repeat", "take_while", "unbatch", "unique"]
