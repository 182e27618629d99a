"""from_generator: signatures old and new, args, clean ends, errors."""

import itertools

import pytest

import companion as tf
from companion.data import Dataset
from tests.data.helpers import spec_shapes, values


def _counting():
    for i in itertools.count(1):
        yield (i, [1] * i)


def test_output_signature_example_from_the_docs():
    ds = Dataset.from_generator(_counting, output_signature=(
        tf.TensorSpec(shape=(), dtype=tf.int64), tf.TensorSpec(shape=(None,), dtype=tf.int32)))
    assert values(ds.take(2)) == [(1, [1]), (2, [1, 1])]
    assert spec_shapes(ds) == (([], "int64"), ([None], "int32"))


def test_older_output_types_and_shapes():
    ds = Dataset.from_generator(_counting, output_types=(tf.int64, tf.int32), output_shapes=((), (None,)))
    assert values(ds.take(2)) == [(1, [1]), (2, [1, 1])]
    assert spec_shapes(ds) == (([], "int64"), ([None], "int32"))


def test_output_types_alone_give_unknown_shapes():
    spec = Dataset.from_generator(lambda: iter([1, 2]), output_types=tf.int64).element_spec
    assert spec.dtype == tf.int64 and spec.shape.rank is None


def test_args_are_passed_as_numpy_values():
    def gen(stop, text):
        assert text == b"x"
        yield from range(int(stop))

    ds = Dataset.from_generator(gen, args=(3, "x"), output_signature=tf.TensorSpec([], tf.int64))
    assert values(ds) == [0, 1, 2]


def test_each_iteration_calls_the_generator_again_and_ends_cleanly():
    calls = []

    def gen():
        calls.append(1)
        yield from [1, 2]

    ds = Dataset.from_generator(gen, output_signature=tf.TensorSpec([], tf.int32))
    assert [int(x) for x in ds] == [1, 2]
    assert [int(x) for x in ds] == [1, 2]
    assert len(calls) == 2
    assert int(ds.cardinality()) == tf.data.UNKNOWN_CARDINALITY


def test_a_yielded_shape_outside_the_signature_is_an_error():
    ds = Dataset.from_generator(lambda: iter([[1, 2, 3]]), output_signature=tf.TensorSpec([2], tf.int32))
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"shape \(3,\)"):
        list(ds)


def test_a_yielded_structure_outside_the_signature_is_an_error():
    sig = (tf.TensorSpec([], tf.int32), tf.TensorSpec([], tf.int32))
    ds = Dataset.from_generator(lambda: iter([1]), output_signature=sig)
    with pytest.raises(TypeError, match="expected structure"):
        list(ds)


def test_an_error_inside_the_generator_reaches_the_consumer():
    def gen():
        yield 1
        raise KeyError("boom")

    ds = Dataset.from_generator(gen, output_signature=tf.TensorSpec([], tf.int32))
    with pytest.raises(KeyError, match="boom") as info:
        list(ds)
    assert any("element 1" in note for note in info.value.__notes__)


def test_padded_batch_example_with_a_generator():
    elements = [([1, 2, 3], [10]), ([4, 5], [11, 12])]
    ds = Dataset.from_generator(lambda: iter(elements), output_types=(tf.int32, tf.int32))
    # output shapes are unknown, so give the padded shapes explicitly (rank 1 each)
    ds = ds.padded_batch(2, padded_shapes=([None], [None]), padding_values=(-1, 100))
    assert values(ds) == [([[1, 2, 3], [4, 5, -1]], [[10, 100], [11, 12]])]


def test_signature_errors():
    with pytest.raises(TypeError, match="callable"):
        Dataset.from_generator([1, 2], output_types=tf.int32)
    with pytest.raises(TypeError, match="output_signature"):
        Dataset.from_generator(lambda: iter([]))
    with pytest.raises(TypeError, match="not both"):
        Dataset.from_generator(lambda: iter([]), output_types=tf.int32,
                               output_signature=tf.TensorSpec([], tf.int32))


def test_iterable_factory_for_readers():
    ds = Dataset._from_iterable_factory(lambda: iter([b"a", b"bc"]), tf.TensorSpec([], tf.string))
    assert values(ds) == [b"a", b"bc"]
