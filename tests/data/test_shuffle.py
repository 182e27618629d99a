"""shuffle: a real buffered shuffle with TF's seed rules and repeat interplay (TF's orders: see
test_shuffle_orders.py)."""

import numpy as np
import pytest

import companion as tf
from companion.data import Dataset
from tests.data.helpers import unfused


def _ints(ds):
    return [int(x) for x in ds]


@pytest.mark.parametrize("fused", [True, False])
def test_shuffle_is_a_permutation(fused):
    ds = Dataset.range(100).shuffle(100, seed=1)
    ds = ds if fused else unfused(ds)
    got = _ints(ds)
    assert sorted(got) == list(range(100)) and got != list(range(100))


@pytest.mark.parametrize("fused", [True, False])
def test_a_small_buffer_only_mixes_nearby_elements(fused):
    ds = Dataset.range(200).shuffle(5, seed=3)
    got = _ints(ds if fused else unfused(ds))
    assert sorted(got) == list(range(200))
    # element i enters the buffer after i - 5 outputs, so it cannot come out earlier
    assert all(value <= position + 5 for position, value in enumerate(got))


def test_buffer_size_one_keeps_the_order():
    assert _ints(Dataset.range(10).shuffle(1)) == list(range(10))


def test_reshuffle_each_iteration_true_changes_the_order_per_epoch():
    ds = Dataset.range(50).shuffle(50, seed=7, reshuffle_each_iteration=True).repeat(2)
    got = _ints(ds)
    assert sorted(got[:50]) == sorted(got[50:]) == list(range(50))
    assert got[:50] != got[50:]


def test_reshuffle_each_iteration_false_repeats_the_order():
    ds = Dataset.range(50).shuffle(50, seed=7, reshuffle_each_iteration=False)
    first = _ints(ds)
    assert _ints(ds) == first
    assert _ints(ds.repeat(2)) == first + first


def test_shuffle_after_repeat_mixes_epochs():
    got = _ints(Dataset.range(10).repeat(3).shuffle(30, seed=2))
    assert sorted(got) == sorted(list(range(10)) * 3)


def test_global_and_op_seeds_make_orders_reproducible():
    tf.random.set_seed(42)
    a = _ints(Dataset.range(30).shuffle(30))
    tf.random.set_seed(42)
    b = _ints(Dataset.range(30).shuffle(30))
    assert a == b
    assert _ints(Dataset.range(30).shuffle(30, seed=5)) == _ints(Dataset.range(30).shuffle(30, seed=5))


def test_shuffled_batches_over_arrays_keep_rows_together(rng):
    x = rng.normal(size=(100, 3)).astype(np.float32)
    y = np.arange(100)
    for bx, by in Dataset.from_tensor_slices((x, y)).shuffle(100, seed=0).batch(32):
        np.testing.assert_array_equal(bx.numpy(), x[by.numpy()])


def test_buffer_size_must_be_positive():
    with pytest.raises(ValueError, match="buffer_size"):
        Dataset.range(3).shuffle(0)
