"""flat_map and interleave (sequential and parallel) against tf.data's documented order."""

import pytest

import companion as tf
from companion.data import AUTOTUNE, Dataset
from tests.data.helpers import values

DOC_ORDER = [1, 1, 1, 1, 2, 2, 2, 2, 1, 1, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 3, 3, 4, 4, 5, 5, 5, 5, 5, 5]


def _repeated(x):
    return Dataset.from_tensors(x).repeat(6)


def test_flat_map_example_from_the_docs():
    ds = Dataset.from_tensor_slices([[1, 2, 3], [4, 5, 6], [7, 8, 9]]).flat_map(Dataset.from_tensor_slices)
    assert values(ds) == [1, 2, 3, 4, 5, 6, 7, 8, 9]


@pytest.mark.parametrize("parallel", [None, 2, AUTOTUNE])
def test_interleave_example_from_the_docs(parallel):
    ds = Dataset.range(1, 6).interleave(_repeated, cycle_length=2, block_length=4,
                                        num_parallel_calls=parallel)
    assert values(ds) == DOC_ORDER


def test_interleave_with_cycle_length_one_is_flat_map():
    ds = Dataset.range(1, 4).interleave(lambda x: Dataset.range(x), cycle_length=1)
    assert values(ds) == [0, 0, 1, 0, 1, 2]


def test_interleave_block_length_one():
    ds = Dataset.range(1, 4).interleave(lambda x: Dataset.from_tensors(x).repeat(2), cycle_length=3)
    assert values(ds) == [1, 2, 3, 1, 2, 3]


def test_nondeterministic_interleave_yields_every_element():
    ds = Dataset.range(1, 6).interleave(_repeated, cycle_length=2, block_length=4, num_parallel_calls=2,
                                        deterministic=False)
    assert sorted(int(x) for x in ds) == sorted(DOC_ORDER)


def test_interleave_spec_and_cardinality():
    ds = Dataset.range(3).interleave(lambda x: Dataset.from_tensors((x, "s")), cycle_length=2)
    assert ds.element_spec[1].dtype == tf.string
    assert int(ds.cardinality()) == tf.data.UNKNOWN_CARDINALITY
    assert values(ds) == [(0, b"s"), (1, b"s"), (2, b"s")]


def test_the_function_must_return_a_dataset():
    with pytest.raises(TypeError, match="must return a `Dataset` object. Got a Tensor"):
        Dataset.range(3).flat_map(lambda x: x)  # TF raises as the transformation is made
    with pytest.raises(TypeError, match="must return a `Dataset` object. Got a tuple"):
        Dataset.range(3).interleave(lambda x: [x])


def test_an_error_in_a_parallel_slot_reaches_the_consumer():
    def fails(x):  # fails at run time, for element 1 (TF: InvalidArgumentError when iterated)
        return Dataset.from_tensors(x).map(
            lambda v: tf.debugging.check_numerics(1.0 / tf.cast(v - 1, tf.float32), "bad"))

    ds = Dataset.range(3).interleave(fails, cycle_length=2, num_parallel_calls=2)
    with pytest.raises(tf.errors.InvalidArgumentError):
        list(ds)
