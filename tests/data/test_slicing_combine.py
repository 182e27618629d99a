"""take, skip, repeat, shard, zip, concatenate, enumerate and cardinality."""

import pytest

import companion as tf
from companion.data import INFINITE_CARDINALITY, UNKNOWN_CARDINALITY, Dataset
from tests.data.helpers import spec_shapes, values


def test_take_skip_repeat_examples_from_the_docs():
    assert values(Dataset.range(10).take(3)) == [0, 1, 2]
    assert values(Dataset.range(10).skip(7)) == [7, 8, 9]
    assert values(Dataset.from_tensor_slices([1, 2, 3]).repeat(3)) == [1, 2, 3] * 3


def test_minus_one_means_all():
    assert values(Dataset.range(4).take(-1)) == [0, 1, 2, 3]
    assert values(Dataset.range(4).skip(-1)) == []
    assert values(Dataset.range(2).repeat(-1).take(5)) == [0, 1, 0, 1, 0]


def test_repeat_of_nothing_ends():
    assert values(Dataset.range(0).repeat()) == []
    assert values(Dataset.range(5).filter(lambda x: x > 10).repeat()) == []


def test_shard():
    assert values(Dataset.range(10).shard(3, 1)) == [1, 4, 7]
    assert len(Dataset.range(10).shard(3, 0)) == 4


@pytest.mark.parametrize("make, expected", [
    (lambda: Dataset.range(42), 42),
    (lambda: Dataset.range(42).repeat(), INFINITE_CARDINALITY),
    (lambda: Dataset.range(42).filter(lambda x: True), UNKNOWN_CARDINALITY),
    (lambda: Dataset.range(42).take(5), 5),
    (lambda: Dataset.range(42).repeat().take(5), 5),
    (lambda: Dataset.range(42).skip(40), 2),
    (lambda: Dataset.range(42).repeat(2), 84),
    (lambda: Dataset.range(3).concatenate(Dataset.range(4)), 7),
    (lambda: Dataset.zip((Dataset.range(3), Dataset.range(5).repeat())), 3),
])
def test_cardinality(make, expected):
    assert int(make().cardinality()) == expected


def test_len_raises_for_infinite_and_unknown():
    with pytest.raises(TypeError, match="infinite"):
        len(Dataset.range(3).repeat())
    with pytest.raises(TypeError, match="unknown"):
        len(Dataset.range(3).filter(lambda x: True))


def test_zip_examples_from_the_docs():
    a, b, c = Dataset.range(1, 4), Dataset.range(4, 7), Dataset.range(7, 13).batch(2)
    d = Dataset.range(13, 15)
    assert values(Dataset.zip((a, b))) == [(1, 4), (2, 5), (3, 6)]
    assert values(Dataset.zip((b, a))) == [(4, 1), (5, 2), (6, 3)]
    assert values(Dataset.zip((a, b, c))) == [(1, 4, [7, 8]), (2, 5, [9, 10]), (3, 6, [11, 12])]
    assert values(Dataset.zip((a, d))) == [(1, 13), (2, 14)]
    assert values(Dataset.zip(a, b)) == [(1, 4), (2, 5), (3, 6)]


def test_zip_of_a_dict():
    ds = Dataset.zip({"x": Dataset.range(2), "y": Dataset.from_tensor_slices(["a", "b"])})
    assert values(ds) == [{"x": 0, "y": b"a"}, {"x": 1, "y": b"b"}]


def test_concatenate_example_and_incompatible_structures():
    a, b = Dataset.range(1, 4), Dataset.range(4, 8)
    assert values(a.concatenate(b)) == [1, 2, 3, 4, 5, 6, 7]
    with pytest.raises(TypeError):
        a.concatenate(Dataset.zip((a, b)))
    with pytest.raises(TypeError, match="dtypes"):
        a.concatenate(Dataset.from_tensor_slices([1.0]))


def test_concatenate_relaxes_shapes():
    a = Dataset.from_tensors([1, 2])
    b = Dataset.from_tensors([1, 2, 3])
    assert spec_shapes(a.concatenate(b)) == ([None], "int32")
    assert values(a.concatenate(b)) == [[1, 2], [1, 2, 3]]


def test_enumerate_examples_from_the_docs():
    assert values(Dataset.from_tensor_slices([1, 2, 3]).enumerate(start=5)) == [(5, 1), (6, 2), (7, 3)]
    nested = Dataset.from_tensor_slices([(7, 8), (9, 10)]).enumerate()
    assert values(nested) == [(0, [7, 8]), (1, [9, 10])]
    assert nested.element_spec[0].dtype == tf.int64


def test_take_stops_an_infinite_dataset():
    assert values(Dataset.range(3).repeat().take(7)) == [0, 1, 2, 0, 1, 2, 0]
