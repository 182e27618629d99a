"""data.experimental: assert_cardinality, at, get_structure and the device transformations."""

import numpy as np
import pytest

import companion as tf


def test_assert_cardinality_declares_the_count_and_checks_it_while_iterating():
    filtered = tf.data.Dataset.range(5).filter(lambda x: x < 3)
    assert int(filtered.cardinality()) == tf.data.UNKNOWN_CARDINALITY
    declared = filtered.apply(tf.data.experimental.assert_cardinality(3))
    assert int(declared.cardinality()) == 3 and [int(x) for x in declared] == [0, 1, 2]
    with pytest.raises(tf.errors.FailedPreconditionError, match="2 elements but contained at least 3"):
        list(filtered.apply(tf.data.experimental.assert_cardinality(2)))
    with pytest.raises(tf.errors.FailedPreconditionError, match="contain 4 elements but contained only 3"):
        list(filtered.apply(tf.data.experimental.assert_cardinality(4)))
    endless = tf.data.Dataset.range(3).repeat().apply(
        tf.data.experimental.assert_cardinality(tf.data.INFINITE_CARDINALITY))
    assert int(endless.cardinality()) == tf.data.INFINITE_CARDINALITY
    assert [int(x) for x in endless.take(4)] == [0, 1, 2, 0]


def test_at_and_get_structure():
    squares = tf.data.Dataset.range(10).map(lambda x: x * x)
    assert int(tf.data.experimental.at(squares, 7)) == 49
    with pytest.raises(tf.errors.OutOfRangeError):
        tf.data.experimental.at(squares, 10)
    pairs = tf.data.Dataset.from_tensor_slices((np.arange(2, dtype=np.int32), ["a", "b"]))
    assert tf.data.experimental.get_structure(pairs) == pairs.element_spec
    assert tf.data.experimental.get_structure(iter(pairs)) == pairs.element_spec
    with pytest.raises(TypeError, match="Dataset or an iterator"):
        tf.data.experimental.get_structure([1, 2])


def test_device_transformations_keep_the_elements():
    for transform in (tf.data.experimental.copy_to_device("/cpu:0"),
                      tf.data.experimental.prefetch_to_device("/cpu:0")):
        assert [int(x) for x in tf.data.Dataset.range(3).apply(transform)] == [0, 1, 2]
