"""companion.ragged against what TF 2.21 gives (values noted beside each check)."""

import numpy as np
import pytest

import companion as tf


def _list(t):
    return np.asarray(t.numpy()).tolist()


def test_constant_layout_and_properties():
    r = tf.ragged.constant([[1, 2], [3], [], [4, 5, 6]])
    assert isinstance(r, tf.RaggedTensor) and r.dtype == tf.int32 and r.ragged_rank == 1
    assert r.shape.as_list() == [4, None]  # TF 2.21: (4, None)
    assert _list(r.values) == [1, 2, 3, 4, 5, 6]
    assert _list(r.row_splits) == [0, 2, 3, 3, 6] and r.row_splits.dtype == tf.int64
    assert _list(r.row_lengths()) == [2, 1, 0, 3]
    assert _list(r.value_rowids()) == [0, 0, 1, 3, 3, 3]
    assert int(r.nrows()) == 4 and len(r) == 4
    assert str(r) == repr(r) == "<companion.RaggedTensor [[1, 2], [3], [], [4, 5, 6]]>"


def test_factories_agree_with_tf():
    values = [3, 1, 4, 1, 5, 9]
    want = [[3, 1], [], [4, 1, 5], [9]]  # TF 2.21's example
    assert tf.RaggedTensor.from_row_splits(values, [0, 2, 2, 5, 6]).to_list() == want
    assert tf.RaggedTensor.from_row_lengths(values, [2, 0, 3, 1]).to_list() == want
    assert tf.RaggedTensor.from_value_rowids(values, [0, 0, 2, 2, 2, 3], nrows=5).to_list() == want + [[]]
    dense = tf.constant([[1, 0], [2, 3]])
    assert tf.RaggedTensor.from_tensor(dense, padding=0).to_list() == [[1], [2, 3]]
    cut = tf.RaggedTensor.from_tensor(tf.constant([[1, 2], [3, 4]]), lengths=[1, 2])
    assert cut.to_list() == [[1], [3, 4]]


@pytest.mark.parametrize("splits", [[0, 2, 5], [1, 2, 3], [0, 3, 2]])
def test_bad_row_splits_raise_invalid_argument(splits):
    with pytest.raises(tf.errors.InvalidArgumentError, match="row_splits"):
        tf.RaggedTensor.from_row_splits([1, 2, 3], splits)


def test_to_tensor_pads_and_numpy_gives_rows():
    r = tf.ragged.constant([[1, 2], [3], []])
    assert _list(r.to_tensor()) == [[1, 2], [3, 0], [0, 0]]
    assert _list(r.to_tensor(default_value=-1)) == [[1, 2], [3, -1], [-1, -1]]
    rows = r.numpy()
    assert rows.dtype == object and [row.tolist() for row in rows] == [[1, 2], [3], []]
    inner = tf.ragged.constant([[[1, 2], [3, 4]], [[5, 6]]], ragged_rank=1)
    assert inner.shape.as_list() == [2, None, 2]  # TF 2.21: (2, None, 2)
    assert _list(inner.to_tensor()) == [[[1, 2], [3, 4]], [[5, 6], [0, 0]]]


def test_nested_rows():
    nested = tf.ragged.constant([[[1, 2], [3]], [[4, 5, 6]]])
    assert nested.ragged_rank == 2 and nested.shape.as_list() == [2, None, None]
    assert [_list(s) for s in nested.nested_row_splits] == [[0, 2, 3], [0, 2, 3, 6]]
    assert nested.to_list() == [[[1, 2], [3]], [[4, 5, 6]]]


def test_indexing_rows_and_slices():
    r = tf.ragged.constant([[1, 2], [3], [], [4, 5, 6]])
    assert _list(r[0]) == [1, 2] and _list(r[-1]) == [4, 5, 6]
    assert r[1:3].to_list() == [[3], []]
    assert int(r[3, 1]) == 5
    with pytest.raises(tf.errors.InvalidArgumentError):
        r[4]


def test_elementwise_ops_dispatch_on_flat_values():
    r = tf.ragged.constant([[1, 2], [3]])
    assert (r * 2).to_list() == [[2, 4], [6]]
    assert (r + r).to_list() == [[2, 4], [6]]
    assert (10 - r).to_list() == [[9, 8], [7]]
    assert tf.math.square(r).to_list() == [[1, 4], [9]]
    assert tf.multiply(r, 10).to_list() == [[10, 20], [30]]
    assert tf.cast(r, tf.float32).dtype == tf.float32
    assert (r > 1).to_list() == [[False, True], [True]]
    with pytest.raises(tf.errors.InvalidArgumentError, match="row partitions"):
        r + tf.ragged.constant([[1], [2, 3]])
    with pytest.raises(tf.errors.InvalidArgumentError, match="broadcast"):  # TF 2.21: InvalidArgumentError
        r + tf.constant([1, 2])


def test_reductions_match_tf():
    f = tf.ragged.constant([[1.0, 2.0], [3.0], [4.0, 5.0, 6.0]])
    np.testing.assert_allclose(_list(tf.reduce_sum(f, axis=1)), [3.0, 3.0, 15.0])
    np.testing.assert_allclose(_list(tf.reduce_sum(f, axis=0)), [8.0, 7.0, 6.0])  # TF 2.21
    np.testing.assert_allclose(_list(tf.reduce_mean(f, axis=0)), [8 / 3, 3.5, 6.0], rtol=1e-6)
    assert float(tf.reduce_sum(f)) == 21.0
    assert _list(tf.reduce_sum(f, axis=1, keepdims=True)) == [[3.0], [3.0], [15.0]]
    empty = tf.ragged.constant([[1.0, 3.0], []])
    out = _list(tf.reduce_mean(empty, axis=1))
    assert out[0] == 2.0 and np.isnan(out[1])  # TF 2.21: [ 2. nan]
    ints = tf.ragged.constant([[2], []])
    assert _list(tf.reduce_max(ints, axis=1)) == [2, np.iinfo(np.int32).min]  # TF 2.21: -2147483648


def test_map_flat_values_is_differentiable_and_works_in_function():
    r = tf.ragged.constant([[1.0, 2.0], [3.0], [4.0, 5.0, 6.0]])
    w = tf.Variable(2.0)
    with tf.GradientTape() as tape:
        y = tf.reduce_sum(tf.ragged.map_flat_values(lambda v: v * w, r) ** 2)
    assert float(y) == 364.0 and float(tape.gradient(y, w)) == 364.0  # TF 2.21: 364.0, 364.0

    @tf.function
    def row_sums(values):
        return tf.reduce_sum(tf.RaggedTensor.from_row_lengths(values, [2, 1, 3]), axis=1)

    assert _list(row_sums(tf.constant([1, 2, 3, 4, 5, 6]))) == [3, 3, 15]


def test_strings_split_gives_a_ragged_tensor():
    words = tf.strings.split(tf.constant(["the cat sat", "on"]))
    assert isinstance(words, tf.RaggedTensor)
    assert words.to_list() == [[b"the", b"cat", b"sat"], [b"on"]]
    padded = _list(words.to_tensor(default_value="<pad>"))
    assert padded == [[b"the", b"cat", b"sat"], [b"on", b"<pad>", b"<pad>"]]
    assert tf.ragged.map_flat_values(tf.strings.upper, words).to_list()[1] == [b"ON"]


def test_constructor_is_internal():
    with pytest.raises(TypeError, match="ragged.constant"):
        tf.RaggedTensor([1, 2], [0, 2])


def test_slicing_inside_the_rows_as_tf():
    # TF 2.21 (the Ragged tensors guide): digits[:, :2], digits[1:3, 1:], digits[:, -2:]
    digits = tf.ragged.constant([[3, 1, 4, 1], [], [5, 9, 2], [6], []])
    assert digits[:, :2].to_list() == [[3, 1], [], [5, 9], [6], []]
    assert digits[1:3, 1:].to_list() == [[], [9, 2]]
    assert digits[:, -2:].to_list() == [[4, 1], [], [9, 2], [6], []]
    assert digits[2, 1:].numpy().tolist() == [9, 2]
    with pytest.raises(ValueError, match="Cannot index into an inner ragged dimension"):
        digits[:, 0]


def test_comparisons_are_elementwise():
    # TF 2.21: <tf.RaggedTensor [[True, True], [True]]> and [[False, True], [True]]; None compares False
    d = tf.ragged.constant([[3, 1], [5]])
    assert (d == d).to_list() == [[True, True], [True]]
    assert (d != 3).to_list() == [[False, True], [True]]
    assert (d == None) is False  # noqa: E711 - TF's comparison with None


def test_integer_rows_average_to_float64_as_tf():
    # TF 2.21 (the Ragged tensors guide): [2.25 nan 5.333 6. nan], dtype float64
    digits = tf.ragged.constant([[3, 1, 4, 1], [], [5, 9, 2], [6], []])
    mean = tf.reduce_mean(digits, axis=1)
    assert mean.dtype == tf.float64
    np.testing.assert_allclose(mean.numpy(), [2.25, np.nan, 16 / 3, 6.0, np.nan])
