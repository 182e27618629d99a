"""`companion.IndexedSlices`: rows of a dense tensor, checked against TF 2.21's values and prints."""

import numpy as np
import pytest

import companion as tf


def test_attributes_and_str():
    rows = tf.IndexedSlices(tf.constant([[1.0, 2.0]]), tf.constant([1]), dense_shape=tf.constant([3, 2]))
    assert isinstance(rows, tf.IndexedSlices)
    assert rows.dtype == tf.float32 and rows.shape == (3, 2)
    np.testing.assert_array_equal(rows.indices.numpy(), [1])
    np.testing.assert_array_equal(rows.dense_shape.numpy(), [3, 2])
    # TF 2.21: IndexedSlices(indices=tf.Tensor([1], ...), values=tf.Tensor([[1. 2.]], ...), dense_shape=...)
    assert str(rows).startswith(
        "IndexedSlices(indices=companion.Tensor([1], shape=(1,), dtype=int32), "
        "values=companion.Tensor([[1. 2.]], shape=(1, 2), dtype=float32), dense_shape=")
    assert repr(rows).startswith("<companion._core._indexed_slices.IndexedSlices object at")  # TF: obj repr
    bare = tf.IndexedSlices(tf.constant([10, 20]), tf.constant([0, 3]))
    assert bare.dense_shape is None and bare.shape.rank is None  # TF: None, <unknown>
    assert "dense_shape" not in str(bare)


def test_converts_to_the_dense_tensor_summing_repeated_rows():
    # TF 2.21: [[0, 0], [1, 2], [0, 0]]; rows [1, 1] of [[1.], [2.]] give [[0], [3], [0]]
    rows = tf.IndexedSlices(tf.constant([[1.0, 2.0]]), tf.constant([1]), tf.constant([3, 2]))
    np.testing.assert_array_equal(tf.convert_to_tensor(rows).numpy(), [[0, 0], [1, 2], [0, 0]])
    repeated = tf.IndexedSlices(tf.constant([[1.0], [2.0]]), tf.constant([1, 1]), tf.constant([3, 1]))
    np.testing.assert_array_equal(tf.convert_to_tensor(repeated).numpy(), [[0], [3], [0]])
    assert float(tf.reduce_sum(rows)) == 3.0  # TF 2.21: 3.0 (ops take it as its dense tensor)
    np.testing.assert_array_equal(tf.convert_to_tensor(-rows).numpy(), [[0, 0], [-1, -2], [0, 0]])


def test_conversion_inside_function():
    @tf.function
    def dense(x):
        return tf.convert_to_tensor(tf.IndexedSlices(tf.reshape(x, [1]), tf.constant([1]), tf.constant([3])))

    np.testing.assert_array_equal(dense(tf.constant(42.0)).numpy(), [0, 42, 0])  # TF 2.21


def test_conversion_without_dense_shape_is_a_value_error():
    with pytest.raises(ValueError, match="dense_shape"):  # TF 2.21: ValueError
        tf.convert_to_tensor(tf.IndexedSlices(tf.constant([1]), tf.constant([0])))
