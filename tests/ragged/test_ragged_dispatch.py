"""TF's dispatch of dense ops to ragged ones (concat, stack, tile, expand_dims, gather, ...) and
ragged broadcasting; expected values are TF 2.21's (the Ragged tensors guide and recorded runs)."""

import numpy as np
import pytest

import companion as tf


def test_concat_joins_rows_or_row_contents():
    digits = tf.ragged.constant([[3, 1, 4, 1], [], [5, 9, 2], [6], []])
    assert tf.concat([digits, [[5, 3]]], axis=0).to_list() == [[3, 1, 4, 1], [], [5, 9, 2], [6], [], [5, 3]]
    x = tf.ragged.constant([["John"], ["a", "big", "dog"], ["my", "cat"]])
    y = tf.ragged.constant([["fell", "asleep"], ["barked"], ["is", "fuzzy"]])
    assert tf.concat([x, y], axis=1).to_list() == [[b"John", b"fell", b"asleep"],
                                                   [b"a", b"big", b"dog", b"barked"],
                                                   [b"my", b"cat", b"is", b"fuzzy"]]
    n = tf.ragged.constant([[[1, 2], [3]], [[4, 5, 6]]])
    assert tf.concat([n, n], axis=2).to_list() == [[[1, 2, 1, 2], [3, 3]], [[4, 5, 6, 4, 5, 6]]]
    u = tf.ragged.constant([[[1, 2], [3, 4]], [[5, 6]]], ragged_rank=1)
    mixed = tf.concat([u, tf.constant([[[0, 0]], [[9, 9]]])], axis=1)
    assert mixed.to_list() == [[[1, 2], [3, 4], [0, 0]], [[5, 6], [9, 9]]]


def test_concat_errors_follow_tf():
    a, b = tf.ragged.constant([[1, 2], [3]]), tf.ragged.constant([[1], [2], [3]])
    with pytest.raises(tf.errors.InvalidArgumentError, match="incompatible shapes"):
        tf.concat([a, b], axis=1)
    with pytest.raises(tf.errors.InvalidArgumentError, match="dtype"):
        tf.concat([a, tf.ragged.constant([[1.0]])], axis=0)
    with pytest.raises(ValueError, match="rank"):
        tf.concat([a, tf.ragged.constant([[[1]]])], axis=0)
    with pytest.raises(ValueError, match="row_splits dtypes"):
        tf.concat([a.with_row_splits_dtype(tf.int32), a], axis=0)


def test_stack_expand_dims_tile_gather():
    a, b = tf.ragged.constant([[1, 2], [3]]), tf.ragged.constant([[1], [2], [3]])
    assert tf.stack([a, b]).to_list() == [[[1, 2], [3]], [[1], [2], [3]]]
    assert tf.stack([a, a], axis=1).to_list() == [[[1, 2], [1, 2]], [[3], [3]]]
    assert tf.stack([a, a], axis=2).to_list() == [[[1, 1], [2, 2]], [[3, 3]]]
    assert [tf.expand_dims(a, k).shape.as_list() for k in (0, 1, 2)] == [[1, 2, None], [2, 1, None],
                                                                         [2, None, 1]]
    assert tf.tile(a, [2, 3]).to_list() == [[1, 2, 1, 2, 1, 2], [3, 3, 3], [1, 2, 1, 2, 1, 2], [3, 3, 3]]
    assert tf.gather(a, [1, 0, 1]).to_list() == [[3], [1, 2], [3]]
    assert tf.gather(a, [[1, 0], [0, 0]]).shape.as_list() == [2, 2, None]
    looked_up = tf.gather(tf.constant([10, 20, 30]), tf.ragged.constant([[2, 0], [1]]))
    assert looked_up.to_list() == [[30, 10], [20]]


def test_dense_operands_broadcast_as_in_the_guide():
    x = tf.ragged.constant([[10, 87, 12], [19, 53], [12, 32]])
    assert (x + [[1000], [2000], [3000]]).to_list() == [[1010, 1087, 1012], [2019, 2053], [3012, 3032]]
    x = tf.ragged.constant([[[1, 2], [3, 4], [5, 6]], [[7, 8]]], ragged_rank=1)
    assert (x + tf.constant([[10]])).to_list() == [[[11, 12], [13, 14], [15, 16]], [[17, 18]]]
    with pytest.raises(tf.errors.InvalidArgumentError):
        x + [[1, 2], [3, 4], [5, 6]]


def test_broadcast_operand_gets_gradients():
    x = tf.ragged.constant([[1.0, 2.0], [3.0]])
    w = tf.Variable([[1.0], [2.0]])
    with tf.GradientTape() as tape:
        y = tf.reduce_sum(x * w)
    np.testing.assert_allclose(tape.gradient(y, w).numpy(), [[3.0], [3.0]])


def test_row_splits_dtype_is_kept():
    r = tf.ragged.range([3, 5, 2], row_splits_dtype=tf.int32)
    assert r.row_splits.dtype == tf.int32 and r.row_lengths().dtype == tf.int32
    assert r.value_rowids().dtype == tf.int32 and r.nrows().dtype == tf.int32
    assert tf.ragged.constant([[1], []], row_splits_dtype=tf.int32).row_splits.dtype == tf.int32
    splits = tf.constant([0, 2, 3], tf.int32)
    assert tf.RaggedTensor.from_row_splits([1, 2, 3], splits).row_splits.dtype == tf.int32
    with pytest.raises(ValueError, match="row_splits dtypes"):
        r + tf.ragged.range([3, 5, 2])


def test_logical_operators():
    a = tf.ragged.constant([[1, 2], [3]])
    assert ((a > 1) & (a < 3)).to_list() == [[False, True], [False]]
    assert (~(a > 1)).to_list() == [[True, False], [False]]
    with pytest.raises(tf.errors.InvalidArgumentError):
        a & a


def test_float32_values_print_at_their_precision():
    r = tf.ragged.constant([[1.0, 2.0], [3.0]])
    assert repr(tf.math.sqrt(r)) == "<companion.RaggedTensor [[1.0, 1.4142135], [1.7320508]]>"  # TF 2.21
    assert repr(tf.ragged.constant([[1.5]], tf.float64) / 3) == "<companion.RaggedTensor [[0.5]]>"


def test_slicing_inner_ragged_dimensions():
    rt = tf.ragged.constant([[[1, 2, 3], [4]], [[5], [], [6]], [[7]], [[8, 9], [10]]])
    assert rt[:, 1:3].to_list() == [[[4]], [[], [6]], [], [[10]]]  # the guide's output
    assert rt[:, -1:].to_list() == [[[4]], [[6]], [[7]], [[10]]]
    with pytest.raises(ValueError, match="inner ragged dimension"):
        rt[:, 0]


def test_sliced_values_keep_gradients():
    v = tf.Variable([1.0, 2.0, 3.0])
    with tf.GradientTape() as tape:
        rt = tf.RaggedTensor.from_row_lengths(v * 1.0, [2, 1])
        total = tf.reduce_sum(rt[:, :1])
    np.testing.assert_allclose(tape.gradient(total, v).numpy(), [1.0, 0.0, 1.0])


def test_elementwise_nn_ops_and_reverse():
    r = tf.ragged.constant([[1.0, 2.0], [3.0]])
    assert tf.nn.relu(r - 2).to_list() == [[0.0, 0.0], [1.0]]
    assert tf.clip_by_value(r, 1.5, 2.5).to_list() == [[1.5, 2.0], [2.5]]
    assert tf.math.add_n([r, r]).to_list() == [[2.0, 4.0], [6.0]]
    assert tf.one_hot(tf.ragged.constant([[0, 2], [1]]), 3).shape.as_list() == [2, None, 3]
    n = tf.ragged.constant([[[1, 2], [3]], [[4, 5, 6]]])
    assert tf.reverse(n, [0, 1]).to_list() == [[[4, 5, 6]], [[3], [1, 2]]]
    assert tf.reverse(n, [2]).to_list() == [[[2, 1], [3]], [[6, 5, 4]]]


def test_reductions_of_nested_rows_and_spread():
    n = tf.ragged.constant([[[1, 2], [3]], [[4, 5, 6]], []])
    assert tf.reduce_sum(n, axis=2).to_list() == [[3, 3], [15], []]  # TF 2.21
    assert tf.reduce_sum(n, axis=1).to_list() == [[4, 2], [4, 5, 6], []]
    r = tf.ragged.constant([[1.0, 2.0, 4.0], [3.0]])
    variance = tf.math.reduce_variance(r, axis=1).numpy()
    np.testing.assert_allclose(variance, [np.var([1, 2, 4]), 0.0], rtol=1e-6)
    np.testing.assert_allclose(float(tf.math.reduce_std(r)), np.std([1, 2, 4, 3]), rtol=1e-6)


def test_map_fn_over_rows():
    digits = tf.ragged.constant([[3, 1, 4, 1], [], [5, 9, 2], [6], []])
    assert tf.map_fn(tf.math.square, digits).to_list() == [[9, 1, 16, 1], [], [25, 81, 4], [36], []]
    sums = tf.map_fn(lambda row: tf.reduce_sum(row), digits, fn_output_signature=tf.int32)
    assert sums.numpy().tolist() == [9, 0, 16, 6, 0]
