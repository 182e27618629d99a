"""tf.data.experimental's function forms give what the Dataset methods they stand for give."""

import numpy as np
import pytest

import companion as tf

E, D = tf.data.experimental, tf.data.Dataset


def _items(dataset):
    return [np.asarray(x).tolist() for x in dataset.as_numpy_iterator()]


@pytest.mark.parametrize("function_form, method_form", [
    (E.unique(), lambda d: d.unique()),
    (E.enumerate_dataset(5), lambda d: d.enumerate(5)),
    (E.scan(np.int64(0), lambda s, x: (s + x, s)), lambda d: d.scan(np.int64(0), lambda s, x: (s + x, s))),
    (E.take_while(lambda x: x < 4), lambda d: d.take_while(lambda x: x < 4)),
    (E.map_and_batch(lambda x: x * 2, 3), lambda d: d.map(lambda x: x * 2).batch(3)),
    (E.shuffle_and_repeat(6, count=2, seed=3), lambda d: d.shuffle(6, seed=3).repeat(2)),
    (E.parallel_interleave(lambda x: D.range(x), cycle_length=2), lambda d: d.interleave(D.range, 2, 1)),
    (E.group_by_window(lambda x: x % 2, lambda k, w: w.batch(2), window_size=2),
     lambda d: d.group_by_window(lambda x: x % 2, lambda k, w: w.batch(2), window_size=2)),
])
def test_function_forms_match_the_methods(function_form, method_form):
    data = D.from_tensor_slices(np.array([3, 1, 4, 1, 5, 2], np.int64))
    assert _items(data.apply(function_form)) == _items(method_form(data))


def test_builders():
    assert _items(D.from_tensor_slices([[1, 2], [3, 4]]).apply(E.unbatch())) == [1, 2, 3, 4]
    assert int(E.get_single_element(D.from_tensors(7))) == 7
    assert _items(E.Counter(3, 2).take(3)) == [3, 5, 7]
    assert E.RandomDataset(seed=1).element_spec.dtype == tf.int64
    pairs = list(E.from_list([(1, "a"), (2, "b")]).as_numpy_iterator())
    assert [(int(n), s) for n, s in pairs] == [(1, b"a"), (2, b"b")]
    assert pairs[0][0].dtype == np.int32  # 1 converts to int32, as TF
    rows = _items(E.from_list([{"x": [1.0, 2.0]}, {"x": [3.0, 4.0]}]))
    assert [r["x"].tolist() for r in rows] == [[1.0, 2.0], [3.0, 4.0]]  # a list in an element: one tensor
    choice = D.from_tensor_slices(np.array([0, 1, 1], np.int64))
    assert _items(E.choose_from_datasets([D.from_tensors(1).repeat(), D.from_tensors(2).repeat()], choice)) \
        == [1, 2, 2]
    assert sorted(_items(E.sample_from_datasets([D.range(3), D.range(10, 12)], seed=1))) == [0, 1, 2, 10, 11]
    with pytest.raises(ValueError, match="at least one element"):
        E.from_list([])
