"""scan, reduce, window, apply and get_single_element."""

import numpy as np
import pytest

import companion as tf
from companion.data import Dataset
from tests.data.helpers import values


def test_scan_example_from_the_docs():
    ds = Dataset.range(10).scan(initial_state=tf.constant(0, dtype=tf.int64),
                                scan_func=lambda state, i: (state + i, state + i))
    assert values(ds) == [0, 1, 3, 6, 10, 15, 21, 28, 36, 45]
    assert ds.element_spec.dtype == tf.int64


def test_scan_restarts_each_iteration_and_checks_the_state_dtype():
    ds = Dataset.range(3).scan(np.int64(0), lambda s, x: (s + x, s))
    assert values(ds) == values(ds) == [0, 0, 1]
    bad = Dataset.range(3).scan(np.int64(0), lambda s, x: (tf.cast(s, tf.float32), x))
    with pytest.raises(TypeError, match="dtype"):
        list(bad)


def test_reduce_examples_from_the_docs():
    assert int(Dataset.range(5).reduce(np.int64(0), lambda x, _: x + 1)) == 5
    assert int(Dataset.range(5).reduce(np.int64(0), lambda x, y: x + y)) == 10


def test_reduce_with_a_structured_state():
    total, count = Dataset.from_tensor_slices([1.0, 2.0, 3.0]).reduce(
        (0.0, 0), lambda state, x: (state[0] + x, state[1] + 1))
    assert float(total) == 6.0 and int(count) == 3


def _windows(ds):
    return [[int(x) for x in w] for w in ds]


@pytest.mark.parametrize("args, expected", [
    ((3,), [[0, 1, 2], [3, 4, 5], [6]]),
    ((3, None, 1, True), [[0, 1, 2], [3, 4, 5]]),
    ((3, 2, 1, True), [[0, 1, 2], [2, 3, 4], [4, 5, 6]]),
    ((3, 1, 2, True), [[0, 2, 4], [1, 3, 5], [2, 4, 6]]),
    ((2, 3), [[0, 1], [3, 4], [6]]),
])
def test_window_examples_from_the_docs(args, expected):
    ds = Dataset.range(7).window(*args)
    assert _windows(ds) == expected
    assert len(ds) == len(expected)


def test_window_of_nested_elements_gives_nested_datasets():
    ds = Dataset.from_tensor_slices(([1, 2, 3, 4, 5], [6, 7, 8, 9, 10])).window(2)
    assert [(_windows([a])[0], _windows([b])[0]) for a, b in ds] == [([1, 2], [6, 7]), ([3, 4], [8, 9]),
                                                                     ([5], [10])]
    ds = Dataset.from_tensor_slices({"a": [1, 2, 3], "b": [4, 5, 6], "c": [7, 8, 9]}).window(2)
    assert [{k: [int(v) for v in w] for k, w in e.items()} for e in ds] == [
        {"a": [1, 2], "b": [4, 5], "c": [7, 8]}, {"a": [3], "b": [6], "c": [9]}]


def test_windows_flattened_into_batches():
    ds = Dataset.range(7).window(3, shift=1, drop_remainder=True).flat_map(lambda w: w.batch(3))
    assert values(ds) == [[0, 1, 2], [1, 2, 3], [2, 3, 4], [3, 4, 5], [4, 5, 6]]


def test_apply_example_from_the_docs():
    assert values(Dataset.range(100).apply(lambda ds: ds.filter(lambda x: x < 5))) == [0, 1, 2, 3, 4]
    with pytest.raises(TypeError, match="must return a Dataset"):
        Dataset.range(3).apply(lambda ds: 3)


def test_get_single_element():
    assert int(Dataset.from_tensors(7).get_single_element()) == 7
    with pytest.raises(tf.errors.InvalidArgumentError, match="more than one"):
        Dataset.range(2).get_single_element()
