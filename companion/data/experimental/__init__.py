"""``companion.data.experimental``: AUTOTUNE, save/load, cardinality and the option classes (TF names).

Also `trace` and `trace_span`, companion's pipeline timeline (an extension; TF has no public equivalent).
"""

from companion._core._context import flags, state
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


def enable_debug_mode():
    """Runs the functions of datasets made from now on eagerly, element by element (TF's debug mode).

    A ``print`` in a ``map`` function then prints on every element, with concrete tensors, and
    breakpoints stop in it; functions are still traced once when the transformation is made, as in
    TensorFlow. Call it before making the datasets, outside `companion.function`; it lasts for the
    process (TF has no function to turn it off).
    """
    if state.staging:
        raise ValueError("`enable_debug_mode() is only supported in eager mode.")
    flags.data_debug_mode = True


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
           "cardinality", "enable_debug_mode", "get_next_as_optional", "load", "save", "trace", "trace_span",
           "Counter",
           "RandomDataset", "bucket_by_sequence_length", "choose_from_datasets", "dense_to_ragged_batch",
           "enumerate_dataset",
           "from_list", "get_single_element", "group_by_window", "map_and_batch", "parallel_interleave",
           "sample_from_datasets", "scan", "shuffle_and_repeat", "take_while", "unbatch", "unique"]
