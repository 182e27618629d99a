"""Nested/uniform factories, sparse conversions, merge_dims and ragged strings ops; expected values
are the Ragged tensors guide's (TF 2.21)."""

import numpy as np
import pytest

import companion as tf


def test_nested_and_uniform_factories():
    rt = tf.RaggedTensor.from_nested_row_splits(
        flat_values=[10, 11, 12, 13, 14, 15, 16, 17, 18, 19],
        nested_row_splits=([0, 1, 1, 5], [0, 3, 3, 5, 9, 10]))
    assert rt.to_list() == [[[10, 11, 12]], [], [[], [13, 14], [15, 16, 17, 18], [19]]]
    assert rt.ragged_rank == 2
    lengths = tf.RaggedTensor.from_nested_row_lengths([1, 2, 3, 4], ([2, 1], [1, 0, 3]))
    assert lengths.to_list() == [[[1], []], [[2, 3, 4]]]
    uniform = tf.RaggedTensor.from_uniform_row_length(
        tf.RaggedTensor.from_row_splits([10, 11, 12, 13, 14, 15, 16, 17, 18, 19], [0, 3, 5, 9, 10]), 2)
    assert uniform.shape.as_list() == [2, 2, None]
    assert uniform.to_list() == [[[10, 11, 12], [13, 14]], [[15, 16, 17, 18], [19]]]
    with pytest.raises(tf.errors.InvalidArgumentError):
        tf.RaggedTensor.from_uniform_row_length([1, 2, 3], 2)


def test_sparse_round_trip():
    sentences = tf.ragged.constant([["Hi"], ["Welcome", "to", "the", "fair"], ["Have", "fun"]])
    st = sentences.to_sparse()
    assert st.indices.numpy().tolist() == [[0, 0], [1, 0], [1, 1], [1, 2], [1, 3], [2, 0], [2, 1]]
    assert st.dense_shape.numpy().tolist() == [3, 4]
    st = tf.SparseTensor(indices=[[0, 0], [2, 0], [2, 1]], values=["a", "b", "c"], dense_shape=[3, 3])
    assert tf.RaggedTensor.from_sparse(st).to_list() == [[b"a"], [], [b"b", b"c"]]


def test_merge_dims():
    n = tf.ragged.constant([[[1, 2], [3]], [[4, 5, 6]]])
    assert n.merge_dims(1, 2).to_list() == [[1, 2, 3], [4, 5, 6]]
    assert n.merge_dims(0, 1).to_list() == [[1, 2], [3], [4, 5, 6]]
    np.testing.assert_array_equal(n.merge_dims(0, -1).numpy(), [1, 2, 3, 4, 5, 6])
    u = tf.ragged.constant([[[1, 2], [3, 4]], [[5, 6]]], ragged_rank=1)
    assert u.merge_dims(1, 2).to_list() == [[1, 2, 3, 4], [5, 6]]


def test_strings_ops_keep_rows():
    words = tf.ragged.constant([["So", "long"], ["thanks", "for", "all", "the", "fish"]])
    assert tf.strings.substr(words, 0, 2).to_list() == [[b"So", b"lo"], [b"th", b"fo", b"al", b"th", b"fi"]]
    padded = tf.concat([tf.fill([2, 1], "#"), words], axis=1)
    bigrams = tf.strings.join([padded[:, :-1], padded[:, 1:]], separator="+")
    assert bigrams.to_list()[0] == [b"#+So", b"So+long"]


def test_embedding_lookup_with_ragged_ids():
    table = tf.constant([[0.0, 0.0], [1.0, 1.0], [2.0, 2.0]])
    out = tf.nn.embedding_lookup(table, tf.ragged.constant([[2], [0, 1]]))
    assert out.shape.as_list() == [2, None, 2]
    np.testing.assert_allclose(tf.reduce_mean(out, axis=1).numpy(), [[2.0, 2.0], [0.5, 0.5]])


def test_constant_without_rows_is_dense():
    # TF 2.21: nothing ragged gives a plain Tensor (float32 when empty)
    assert not isinstance(tf.ragged.constant([]), tf.RaggedTensor)
    assert tf.ragged.constant([]).dtype == tf.float32
    assert tf.ragged.constant([1, 2]).numpy().tolist() == [1, 2]
    with pytest.raises(ValueError, match="ragged_rank"):
        tf.ragged.constant([1, 2], ragged_rank=1)
