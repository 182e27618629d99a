"""batch, unbatch, rebatch and padded_batch against tf.data's documented results."""

import tracemalloc

import numpy as np
import pytest

import companion as tf
from companion.data import Dataset
from tests.data.helpers import spec_shapes, values


def test_batch_examples_from_the_docs():
    assert values(Dataset.range(8).batch(3)) == [[0, 1, 2], [3, 4, 5], [6, 7]]
    assert values(Dataset.range(8).batch(3, drop_remainder=True)) == [[0, 1, 2], [3, 4, 5]]


def test_batch_dimension_is_known_only_with_drop_remainder():
    assert spec_shapes(Dataset.range(8).batch(3)) == ([None], "int64")
    assert spec_shapes(Dataset.range(8).batch(3, drop_remainder=True)) == ([3], "int64")


def test_batch_cardinality():
    assert len(Dataset.range(8).batch(3)) == 3
    assert len(Dataset.range(8).batch(3, drop_remainder=True)) == 2
    assert int(Dataset.range(8).repeat().batch(3).cardinality()) == tf.data.INFINITE_CARDINALITY


def test_batch_of_nested_elements():
    ds = Dataset.from_tensor_slices({"x": np.arange(6).reshape(3, 2), "y": ["a", "b", "c"]}).batch(2)
    assert values(ds) == [{"x": [[0, 1], [2, 3]], "y": [b"a", b"b"]}, {"x": [[4, 5]], "y": [b"c"]}]
    assert spec_shapes(ds) == {"x": ([None, 2], "int64"), "y": ([None], "string")}


def test_batch_with_parallel_calls():
    assert values(Dataset.range(10).map(lambda x: x * x).batch(4, num_parallel_calls=2)) == [
        [0, 1, 4, 9], [16, 25, 36, 49], [64, 81]]


def test_a_batch_larger_than_the_dataset_costs_memory_for_the_data_only():
    # The course batches a whole test set with batch(1000001); the short batch must not be
    # gathered at the requested size and trimmed afterwards.
    rows = np.arange(5 * 1000, dtype=np.float64).reshape(5, 1000)
    ds = Dataset.from_tensor_slices(rows).map(lambda x: x * 2.0).batch(10_000)
    tracemalloc.start()
    try:
        (batch,) = list(ds)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    np.testing.assert_array_equal(batch.numpy(), rows * 2.0)
    padded_bytes = 10_000 * rows[0].nbytes  # what gathering 10,000 rows would take
    assert peak < padded_bytes / 8, f"peak {peak} bytes for {rows.nbytes} bytes of data"


def test_batching_elements_of_different_shapes_is_an_error():
    ds = Dataset.range(1, 4).map(lambda x: tf.fill([x], x)).batch(3)
    with pytest.raises(tf.errors.InvalidArgumentError, match="different shapes"):
        list(ds)


def test_batch_size_must_be_positive():
    with pytest.raises(ValueError, match="batch_size"):
        Dataset.range(3).batch(0)


def test_unbatch_example_from_the_docs():
    elements = [[1, 2, 3], [1, 2], [1, 2, 3, 4]]
    ds = Dataset.from_generator(lambda: iter(elements), output_signature=tf.TensorSpec([None], tf.int64))
    assert values(ds.unbatch()) == [1, 2, 3, 1, 2, 1, 2, 3, 4]


def test_unbatch_undoes_batch_and_keeps_structure():
    ds = Dataset.from_tensor_slices(([1, 2, 3], ["a", "b", "c"])).batch(2).unbatch()
    assert values(ds) == [(1, b"a"), (2, b"b"), (3, b"c")]
    assert spec_shapes(ds) == (([], "int32"), ([], "string"))


def test_unbatch_needs_a_first_dimension():
    with pytest.raises(ValueError, match="rank >= 1"):
        Dataset.range(3).unbatch()


@pytest.mark.parametrize("make, expected", [
    (lambda: Dataset.range(6).batch(2).rebatch(3), [[0, 1, 2], [3, 4, 5]]),
    (lambda: Dataset.range(7).batch(4).rebatch(3), [[0, 1, 2], [3, 4, 5], [6]]),
    (lambda: Dataset.range(7).batch(2).rebatch(3, drop_remainder=True), [[0, 1, 2], [3, 4, 5]]),
    (lambda: Dataset.range(8).batch(4).rebatch([2, 1, 1]), [[0, 1], [2], [3], [4, 5], [6], [7]]),
])
def test_rebatch_examples_from_the_docs(make, expected):
    assert values(make()) == expected


def test_padded_batch_examples_from_the_docs():
    a = Dataset.range(1, 5).map(lambda x: tf.fill([x], x))
    assert values(a.padded_batch(2)) == [[[1, 0], [2, 2]], [[3, 3, 3, 0], [4, 4, 4, 4]]]
    assert values(a.padded_batch(2, padded_shapes=5)) == [
        [[1, 0, 0, 0, 0], [2, 2, 0, 0, 0]], [[3, 3, 3, 0, 0], [4, 4, 4, 4, 0]]]
    assert values(a.padded_batch(2, padding_values=-1)) == [[[1, -1], [2, 2]], [[3, 3, 3, -1], [4, 4, 4, 4]]]


def test_padded_batch_of_tuples_and_strings():
    pairs = Dataset.from_tensor_slices((["a", "b"], [1, 2]))
    ds = pairs.map(lambda s, n: (tf.stack([s, s]), tf.fill([n], n)))
    got = values(ds.padded_batch(2))
    assert got == [([[b"a", b"a"], [b"b", b"b"]], [[1, 0], [2, 2]])]


def test_padded_batch_spec_and_too_small_shape():
    a = Dataset.range(1, 5).map(lambda x: tf.fill([x], x))
    assert spec_shapes(a.padded_batch(2, padded_shapes=[5], drop_remainder=True)) == ([2, 5], "int64")
    with pytest.raises(tf.errors.InvalidArgumentError, match="smaller size"):
        list(a.padded_batch(2, padded_shapes=[2]))


def test_padded_batch_pads_strings_with_bytes():
    # TF 2.21: padding_values="<pad>" pads with b'<pad>', as a string tensor's elements are bytes
    ds = tf.data.Dataset.from_generator(lambda: iter([["a"], ["b", "c"]]),
                                        output_signature=tf.TensorSpec([None], tf.string))
    batch = next(iter(ds.padded_batch(2, padding_values="<pad>")))
    assert batch.numpy().tolist() == [[b"a", b"<pad>"], [b"b", b"c"]]
