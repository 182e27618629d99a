"""from_tensor_slices, from_tensors and range against tf.data's documented results."""

import numpy as np
import pytest

import companion as tf
from companion.data import Dataset
from tests.data.helpers import spec_shapes, values


def test_from_tensor_slices_of_a_list():
    ds = Dataset.from_tensor_slices([1, 2, 3])
    assert values(ds) == [1, 2, 3]
    assert spec_shapes(ds) == ([], "int32")


def test_from_tensor_slices_of_a_tuple_gives_tuples():
    assert values(Dataset.from_tensor_slices(([1, 2], [3, 4], [5, 6]))) == [(1, 3, 5), (2, 4, 6)]


def test_from_tensor_slices_of_a_dict_gives_dicts():
    ds = Dataset.from_tensor_slices({"a": [1, 2], "b": [3, 4]})
    assert values(ds) == [{"a": 1, "b": 3}, {"a": 2, "b": 4}]


def test_from_tensor_slices_of_a_nested_structure():
    ds = Dataset.from_tensor_slices({"a": ([1, 2], [3, 4]), "b": [5, 6]})
    assert values(ds) == [{"a": (1, 3), "b": 5}, {"a": (2, 4), "b": 6}]


def test_from_tensor_slices_of_a_matrix_gives_rows():
    assert values(Dataset.from_tensor_slices([[1, 2], [3, 4]])) == [[1, 2], [3, 4]]


def test_features_and_string_labels():
    features = tf.constant([[1, 3], [2, 1], [3, 3]])
    labels = tf.constant(["A", "B", "A"])
    ds = Dataset.from_tensor_slices((features, labels))
    assert values(ds) == [([1, 3], b"A"), ([2, 1], b"B"), ([3, 3], b"A")]
    assert spec_shapes(ds) == (([2], "int32"), ([], "string"))


def test_numpy_arrays_keep_their_dtype():
    ds = Dataset.from_tensor_slices(np.arange(4))
    assert spec_shapes(ds) == ([], "int64")
    assert values(ds) == [0, 1, 2, 3]


def test_large_arrays_live_on_device_and_slice_correctly(rng):
    x = rng.normal(size=(300, 1000)).astype(np.float32)  # 1.2 MB: stored as a device array
    rows = [np.asarray(e) for e in Dataset.from_tensor_slices(x).skip(297)]
    np.testing.assert_array_equal(np.stack(rows), x[297:])


def test_from_tensor_slices_rejects_unequal_first_dimensions():
    with pytest.raises(ValueError, match="same first dimension"):
        Dataset.from_tensor_slices(([1, 2], [1, 2, 3]))


def test_from_tensor_slices_rejects_scalars():
    with pytest.raises(ValueError, match="rank >= 1"):
        Dataset.from_tensor_slices(1)


def test_from_tensors_is_one_element():
    assert values(Dataset.from_tensors([1, 2, 3])) == [[1, 2, 3]]
    assert values(Dataset.from_tensors(([1, 2, 3], "A"))) == [([1, 2, 3], b"A")]
    assert len(Dataset.from_tensors([1, 2])) == 1


@pytest.mark.parametrize("args, expected", [
    ((5,), [0, 1, 2, 3, 4]),
    ((2, 5), [2, 3, 4]),
    ((1, 5, 2), [1, 3]),
    ((1, 5, -2), []),
    ((5, 1), []),
    ((5, 1, -2), [5, 3]),
])
def test_range_follows_python_range(args, expected):
    ds = Dataset.range(*args)
    assert values(ds) == expected
    assert spec_shapes(ds) == ([], "int64")
    assert len(ds) == len(expected)


def test_range_output_type():
    assert spec_shapes(Dataset.range(2, 5, output_type=tf.int32)) == ([], "int32")
    assert values(Dataset.range(1, 5, 2, output_type=tf.float32)) == [1.0, 3.0]


def test_range_rejects_a_zero_step_non_integers_and_wrong_counts_with_tfs_classes():
    # TF 2.21: step 0 -> InvalidArgumentError ("step must be a non-zero integer"); a float bound ->
    # TypeError (even with output_type=tf.float32: bounds are int64); no arguments -> ValueError
    with pytest.raises(tf.errors.InvalidArgumentError, match="non-zero"):
        Dataset.range(1, 2, 0)
    with pytest.raises(TypeError, match="integer bounds"):
        Dataset.range(0, 1, 0.25, output_type=tf.float32)
    with pytest.raises(ValueError, match="1 to 3"):
        Dataset.range()


def test_iteration_yields_companion_tensors():
    element = next(iter(Dataset.from_tensor_slices(({"x": [1.0]}, [b"a"]))))
    assert isinstance(element, tuple) and isinstance(element[0], dict)
    assert isinstance(element[0]["x"], tf.Tensor) and element[0]["x"].dtype == tf.float32
    assert isinstance(element[1], tf.Tensor) and element[1].numpy() == b"a"


class _ArrayLike:
    """Stands in for pandas columns and other objects with ``__array__``."""

    def __array__(self, dtype=None, copy=None):
        return np.array([1.5, 2.5])


def test_array_likes_are_sliced_like_arrays():
    assert values(Dataset.from_tensor_slices({"col": _ArrayLike()})) == [{"col": 1.5}, {"col": 2.5}]
