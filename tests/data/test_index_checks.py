"""A bad index inside a dataset function raises when the element reaches it, as in TF.

Oracle: TF 2.21, observed: TF runs dataset functions on the CPU, so ``tf.gather(t, 2)`` on 2 rows
in a ``map`` is an InvalidArgumentError ("indices = 2 is not in [0, 2)") raised by the iterator at
that element, after the elements before it were produced; ``t[x]`` raises "slice index 2 of
dimension 0 out of bounds.". (A compiled function outside tf.data keeps the accelerator's 0.)
"""

import pytest

import companion as tf
from companion.data import Dataset

T = tf.constant([10, 20])


def produced(ds):
    got = []
    with pytest.raises(tf.errors.InvalidArgumentError) as caught:
        for value in ds:
            got.append(value.numpy().tolist())
    return got, str(caught.value)


@pytest.mark.parametrize("make, expected", [
    (lambda: Dataset.range(4).map(lambda x: tf.gather(T, x)), [10, 20]),
    (lambda: Dataset.from_tensor_slices([0, 1, 2, 0]).map(lambda x: tf.gather(T, x)), [10, 20]),
    (lambda: Dataset.from_tensor_slices([[0, 1], [1, 3]]).map(lambda x: tf.gather(T, x)), [[10, 20]]),
    (lambda: Dataset.from_generator(lambda: iter([0, 1, 2]), output_types=tf.int32).map(
        lambda x: tf.gather(T, x)), [10, 20]),
    (lambda: Dataset.range(4).batch(2).map(lambda x: tf.gather(T, x)), [[10, 20]]),
    (lambda: Dataset.range(3).map(lambda x: tf.gather_nd(T, tf.reshape(x, [1]))), [10, 20]),
    (lambda: Dataset.range(4).filter(lambda x: tf.gather(T, x) > 0), [0, 1]),
    (lambda: Dataset.range(2).map(lambda x: tf.gather(T, x - 1)), []),
])
def test_an_out_of_range_gather_raises_at_its_element(make, expected):
    got, message = produced(make())
    assert got == expected
    assert "is not in [0, 2)" in message


def test_indexing_with_an_element_checks_the_index():
    got, message = produced(Dataset.range(3).map(lambda x: T[x]))
    assert got == [10, 20]
    assert "slice index 2 of dimension 0 out of bounds." in message


def test_a_vectorised_map_produces_every_element_before_the_bad_one():
    table = tf.range(600)
    got, _ = produced(Dataset.range(1000).map(lambda x: tf.gather(table, x) * 2))
    assert got == list(range(0, 1200, 2))
    got, _ = produced(Dataset.range(1000).map(lambda x: tf.gather(table, x)).batch(100))
    assert len(got) == 6 and got[-1][-1] == 599


def test_in_range_indices_are_unchanged():
    assert [int(v) for v in Dataset.range(2).map(lambda x: tf.gather(T, x) + T[x])] == [20, 40]
    assert [int(v) for v in Dataset.range(2).map(lambda x: T[x - 2])] == [10, 20]  # negative: from the end


def test_a_compiled_function_outside_tf_data_is_unchanged():
    # as on TF's GPU: an out-of-range index in a compiled function selects 0
    assert int(tf.function(lambda i: tf.gather(T, i))(tf.constant(5))) == 0
