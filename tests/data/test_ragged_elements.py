"""Ragged elements in tf.data: from_tensor_slices of a RaggedTensor, batch, ragged_batch, specs.

Oracle: TF 2.21 on the same programs (printed specs and values copied from its output).
"""

import numpy as np
import pytest

import companion as tf
from companion.data import Dataset


def _r(spec):
    return repr(spec).replace("companion.", "tf.")


RAGGED = [[1, 2], [3], [4, 5, 6]]


def test_ragged_tensor_spec_repr_defaults_and_equality():
    assert _r(tf.RaggedTensorSpec([None, None], tf.int32)) == \
        "RaggedTensorSpec(TensorShape([None, None]), tf.int32, 1, tf.int64)"
    assert _r(tf.RaggedTensorSpec([None, None, 2], tf.int32)) == \
        "RaggedTensorSpec(TensorShape([None, None, 2]), tf.int32, 2, tf.int64)"
    spec = tf.RaggedTensorSpec([3, None])
    assert (spec.shape.as_list(), spec.dtype, spec.ragged_rank) == ([3, None], tf.float32, 1)
    batched = Dataset.range(4).map(lambda x: tf.range(x)).ragged_batch(2).element_spec
    assert tf.RaggedTensorSpec(shape=[None, None], dtype=tf.int64) == batched
    with pytest.raises(ValueError):
        tf.RaggedTensorSpec([None], tf.int32, ragged_rank=1)


def test_slices_of_a_ragged_tensor_are_dense_rows():
    ds = Dataset.from_tensor_slices((tf.ragged.constant(RAGGED), [0, 1, 1]))
    assert _r(ds.element_spec) == ("(RaggedTensorSpec(TensorShape([None]), tf.int32, 0, tf.int64), "
                                   "TensorSpec(shape=(), dtype=tf.int32, name=None))")
    rows = [(x.numpy().tolist(), int(y)) for x, y in ds]
    assert rows == [([1, 2], 0), ([3], 1), ([4, 5, 6], 1)]
    assert int(ds.cardinality()) == 3
    assert _r(ds).startswith("<_TensorSliceDataset element_spec=(RaggedTensorSpec(")
    nested = Dataset.from_tensor_slices(tf.ragged.constant([[[1], [2, 3]], [[4]]]))
    assert _r(nested.element_spec) == "RaggedTensorSpec(TensorShape([None, None]), tf.int32, 1, tf.int64)"
    assert [x.to_list() for x in nested] == [[[1], [2, 3]], [[4]]]


def test_batching_ragged_rows_gives_ragged_tensors():
    ds = Dataset.from_tensor_slices((tf.ragged.constant(RAGGED), [0, 1, 1]))
    assert _r(ds.batch(2).element_spec) == (
        "(RaggedTensorSpec(TensorShape([None, None]), tf.int32, 1, tf.int64), "
        "TensorSpec(shape=(None,), dtype=tf.int32, name=None))")
    assert [(x.to_list(), y.numpy().tolist()) for x, y in ds.batch(2)] == [([[1, 2], [3]], [0, 1]),
                                                                          ([[4, 5, 6]], [1])]
    first = next(ds.batch(2).as_numpy_iterator())[0]
    assert first.dtype == object and [r.tolist() for r in first] == [[1, 2], [3]]
    assert _r(Dataset.from_tensor_slices(tf.ragged.constant(RAGGED)).batch(2, drop_remainder=True)
              .element_spec) == "RaggedTensorSpec(TensorShape([2, None]), tf.int32, 1, tf.int64)"
    nested = Dataset.from_tensor_slices(tf.ragged.constant([[[1], [2, 3]], [[4]], [[5, 6, 7]]])).batch(2)
    assert _r(nested.element_spec) == \
        "RaggedTensorSpec(TensorShape([None, None, None]), tf.int32, 2, tf.int64)"
    assert [x.to_list() for x in nested] == [[[[1], [2, 3]], [[4]]], [[[5, 6, 7]]]]
    again = Dataset.from_tensor_slices(tf.ragged.constant(RAGGED)).batch(2).unbatch()
    assert _r(again.element_spec) == "RaggedTensorSpec(TensorShape([None]), tf.int32, 0, tf.int64)"
    assert [x.numpy().tolist() for x in again] == RAGGED


def test_ragged_batch_and_dense_to_ragged_batch():
    ranges = Dataset.range(5).map(lambda x: tf.range(x))
    ds = ranges.ragged_batch(2)
    assert _r(ds.element_spec) == "RaggedTensorSpec(TensorShape([None, None]), tf.int64, 1, tf.int64)"
    assert [x.to_list() for x in ds] == [[[], [0]], [[0, 1], [0, 1, 2]], [[0, 1, 2, 3]]]
    assert _r(ds) == ("<_BatchDataset element_spec=RaggedTensorSpec(TensorShape([None, None]), tf.int64, 1, "
                      "tf.int64)>")
    applied = ranges.apply(tf.data.experimental.dense_to_ragged_batch(3))
    assert [[r.tolist() for r in b] for b in applied.as_numpy_iterator()] == [[[], [0], [0, 1]],
                                                                              [[0, 1, 2], [0, 1, 2, 3]]]
    # fully known shapes batch densely
    assert _r(Dataset.range(4).ragged_batch(3).element_spec) == \
        "TensorSpec(shape=(None,), dtype=tf.int64, name=None)"
    assert _r(Dataset.from_tensor_slices([[1, 2], [3, 4]]).ragged_batch(3).element_spec) == \
        "TensorSpec(shape=(None, 2), dtype=tf.int32, name=None)"
    rows = Dataset.range(4).map(lambda x: tf.fill([x, 3], x)).ragged_batch(2)
    assert _r(rows.element_spec) == "RaggedTensorSpec(TensorShape([None, None, 3]), tf.int64, 1, tf.int64)"
    squares = Dataset.range(1, 4).map(lambda x: tf.fill([x, x], x)).ragged_batch(2)
    assert _r(squares.element_spec) == \
        "RaggedTensorSpec(TensorShape([None, None, None]), tf.int64, 2, tf.int64)"
    assert [x.to_list() for x in squares] == [[[[1]], [[2, 2], [2, 2]]], [[[3, 3, 3], [3, 3, 3], [3, 3, 3]]]]


def test_map_over_ragged_rows_traces_a_dense_row(capsys):
    ds = Dataset.from_tensor_slices((tf.ragged.constant(RAGGED), [0, 1, 1]))
    doubled = ds.map(lambda x, y: (print("m", x, y), x * 2)[1])
    assert capsys.readouterr().out == ('m Tensor("RaggedFromVariant/RaggedTensorFromVariant:0", '
                                       'shape=(None,), dtype=int32) '
                                       'Tensor("args_1:0", shape=(), dtype=int32)\n')
    assert _r(doubled.element_spec) == "TensorSpec(shape=(None,), dtype=tf.int32, name=None)"
    assert [x.numpy().tolist() for x in doubled] == [[2, 4], [6], [8, 10, 12]]
    sums = Dataset.from_tensor_slices(tf.ragged.constant(RAGGED)).map(tf.reduce_sum)
    assert np.array_equal(sums.batch(3).get_single_element().numpy(), [3, 3, 15])


def test_padded_batch_refuses_ragged_components():
    with pytest.raises(TypeError, match="only supported for datasets that produce tensor elements"):
        Dataset.from_tensor_slices(tf.ragged.constant(RAGGED)).padded_batch(2)
