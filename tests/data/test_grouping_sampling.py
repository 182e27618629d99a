"""group_by_window, bucket_by_sequence_length, unique, sample/choose_from_datasets, random (TF 2.21)."""

import pytest

import companion as tf
from companion.data import Dataset


def _lists(ds):
    return [x.tolist() if hasattr(x, "tolist") else x for x in ds.as_numpy_iterator()]


def test_group_by_window():
    # TF 2.21: [[0, 2, 4], [1, 3, 5], [6, 8], [7, 9]], spec (None,) int64, cardinality -2
    ds = Dataset.range(10).group_by_window(key_func=lambda x: x % 2, reduce_func=lambda k, w: w.batch(3),
                                           window_size=3)
    assert _lists(ds) == [[0, 2, 4], [1, 3, 5], [6, 8], [7, 9]]
    assert ds.element_spec == tf.TensorSpec([None], tf.int64)
    assert int(ds.cardinality()) == tf.data.UNKNOWN_CARDINALITY
    assert repr(ds).startswith("<_GroupByWindowDataset ")


def test_bucket_by_sequence_length():
    # TF 2.21's documented example: three padded batches, spec (None, None) int64
    elements = [[0], [1, 2, 3, 4], [5, 6, 7], [7, 8, 9, 10, 11], [13, 14, 15, 16, 19, 20], [21, 22]]
    ds = Dataset.from_generator(lambda: elements, tf.int64, output_shapes=[None])
    ds = ds.bucket_by_sequence_length(element_length_func=lambda elem: tf.shape(elem)[0],
                                      bucket_boundaries=[3, 5], bucket_batch_sizes=[2, 2, 2])
    assert _lists(ds) == [[[1, 2, 3, 4], [5, 6, 7, 0]], [[7, 8, 9, 10, 11, 0], [13, 14, 15, 16, 19, 20]],
                          [[0, 0], [21, 22]]]
    assert ds.element_spec == tf.TensorSpec([None, None], tf.int64)


def test_unique():
    assert _lists(Dataset.from_tensor_slices([1, 1, 2, 3, 2]).unique()) == [1, 2, 3]
    with pytest.raises(TypeError):
        Dataset.from_tensor_slices([1.0]).unique()


def test_sample_from_datasets():
    a, b = Dataset.from_tensors(1).repeat(5), Dataset.from_tensors(2).repeat(5)
    ds = Dataset.sample_from_datasets([a, b], weights=[0.5, 0.5], seed=1)
    assert sorted(_lists(ds)) == [1] * 5 + [2] * 5  # TF 2.21: every element of both, in a random order
    assert ds.element_spec == tf.TensorSpec([], tf.int32) and int(ds.cardinality()) == -2
    only_a = Dataset.sample_from_datasets([a, b], weights=[1.0, 0.0], stop_on_empty_dataset=True)
    assert _lists(only_a) == [1] * 5


def test_choose_from_datasets():
    datasets = [Dataset.from_tensors("foo").repeat(), Dataset.from_tensors("bar").repeat(),
                Dataset.from_tensors("baz").repeat()]
    ds = Dataset.choose_from_datasets(datasets, Dataset.range(3).repeat(2))
    assert _lists(ds) == [b"foo", b"bar", b"baz", b"foo", b"bar", b"baz"]
    assert ds.element_spec == tf.TensorSpec([], tf.string) and int(ds.cardinality()) == -1
    two = [Dataset.from_tensors(1), Dataset.from_tensors(2)]
    choice = Dataset.from_tensor_slices(tf.constant([0, 0, 1], tf.int64))
    assert _lists(Dataset.choose_from_datasets(two, choice)) == [1]  # TF 2.21: stops at the empty one
    assert _lists(Dataset.choose_from_datasets(two, choice, stop_on_empty_dataset=False)) == [1, 2]
    with pytest.raises(TypeError, match="int64"):
        Dataset.choose_from_datasets(two, Dataset.from_tensor_slices([0, 1]))


def test_random():
    ds = Dataset.random(seed=4).take(3)
    assert ds.element_spec == tf.TensorSpec([], tf.int64) and int(ds.cardinality()) == 3
    assert int(Dataset.random().cardinality()) == tf.data.INFINITE_CARDINALITY
    assert _lists(ds) == _lists(Dataset.random(seed=4).take(3))  # a seed repeats the sequence


def test_random_gives_tensorflows_numbers():
    # TF 2.21: Dataset.random(seed=4) -> PhiloxRandom(87654321, 4)'s 32-bit words, as int64
    assert _lists(Dataset.random(seed=4).take(3)) == [3128586565, 2023892699, 452966358]
    again = Dataset.random(seed=4, rerandomize_each_iteration=True).take(3)
    first, second = _lists(again), _lists(again)
    assert first == [1905554911, 4215726141, 1283758208]  # TF 2.21
    assert second == [1683472663, 2279948892, 2709632186]  # a new sequence for each iteration


def test_bucket_length_function_built_from_tensor_ops():
    # TF 2.21: scalar elements bucketed by their value: [[0, 1], [2, 3], [4, 5]]
    ds = Dataset.range(6).bucket_by_sequence_length(lambda x: tf.cast(x, tf.int32), [2, 4], [2, 2, 2])
    assert _lists(ds) == [[0, 1], [2, 3], [4, 5]]
