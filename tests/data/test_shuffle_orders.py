"""shuffle produces TensorFlow's element orders for seeded shuffles.

The oracle is a plain-Python transcription of TF 2.21's kernels, written from the C++ sources
and independent of companion's code: Philox-4x32-10 on Python ints (``philox_random.h``, checked
against the Random123 known answers), the seed generator (``random_seed_ops.cc``: reshuffling
draws two words per iterator from ``PhiloxRandom(seed, seed2)``, a fixed one hands out the pair)
and the shuffle iterator's buffer (``shuffle_dataset_op.cc``: slices of a ring buffer, output
``Random() % size`` from the front, the front element moved into its place). The literal orders
below were printed by TensorFlow 2.21 (CPU) running the same pipelines.
"""

import numpy as np
import pytest

import companion as tf
from companion.data import Dataset
from companion.data._node import in_order
from companion.data._shuffle import shuffle_indices
from companion.random._philox import host_words
from tests.data.helpers import unfused

_MASK = 0xFFFFFFFF
_DEFAULT_GRAPH_SEED = 87654321


@pytest.fixture(autouse=True)
def _no_global_seed():
    """The orders depend on the global seed: every test starts (and leaves) without one."""
    tf.random.set_seed(None)
    yield
    tf.random.set_seed(None)


def _philox_block(counter, key):
    c0, c1, c2, c3 = counter
    k0, k1 = key
    for _ in range(10):
        p0, p1 = c0 * 0xD2511F53, c2 * 0xCD9E8D57
        c0, c1, c2, c3 = (p1 >> 32) ^ c1 ^ k0, p1 & _MASK, (p0 >> 32) ^ c3 ^ k1, p0 & _MASK
        k0, k1 = (k0 + 0x9E3779B9) & _MASK, (k1 + 0xBB67AE85) & _MASK
    return [c0, c1, c2, c3]


class _Philox:
    """TF's ``SingleSampleAdapter<PhiloxRandom(seed, seed2)>``: key = seed, counter high = seed2."""

    def __init__(self, seed, seed2):
        seed, seed2 = seed % 2**64, seed2 % 2**64
        self.key = (seed & _MASK, seed >> 32)
        self.counter = seed2 << 64
        self.pending = []

    def __call__(self):
        if not self.pending:
            c = self.counter
            self.pending = _philox_block([(c >> s) & _MASK for s in (0, 32, 64, 96)], self.key)
            self.counter = (c + 1) % 2**128
        return self.pending.pop(0)


def _tf_epoch(elements, buffer_size, seeds):
    """One TF shuffle iterator over ``elements``: fill, draw from the front slice, refill."""
    rng = _Philox(*seeds)
    source = iter(elements)
    buffer, out = [], []
    while True:
        while len(buffer) < buffer_size:
            element = next(source, None)
            if element is None:
                break
            buffer.append(element)
        if not buffer:
            return out
        offset = rng() % len(buffer)
        out.append(buffer[offset])
        buffer[offset] = buffer[0]
        buffer.pop(0)


def _tf_epochs(elements, buffer_size, seeds, epochs, reshuffle=True):
    generator = _Philox(*seeds)
    orders = []
    for _ in range(epochs):
        iterator_seeds = (generator(), generator()) if reshuffle else seeds
        orders.append(_tf_epoch(list(elements), buffer_size, iterator_seeds))
    return orders


def _ints(ds):
    return [int(x) for x in ds]


def test_philox_words_match_the_known_answers():
    # Random123's Philox-4x32-10 known-answer tests, as (seed, seed2, block) of TF's PhiloxRandom
    assert [_philox_block([0] * 4, [0, 0])] == [[0x6627E8D5, 0xE169C58D, 0xBC57AC4C, 0x9B00DBD8]]
    assert host_words(0, 0, 0, 4).tolist() == [0x6627E8D5, 0xE169C58D, 0xBC57AC4C, 0x9B00DBD8]
    ones = 2**64 - 1
    assert host_words(ones, ones, ones * 4, 4).tolist() == [0x408F276D, 0x41C83B0E, 0xA20BC7C6, 0x6D5451FD]
    assert host_words(0x299F31D0A4093822, 0x0370734413198A2E, 0x85A308D3243F6A88 * 4, 4).tolist() == \
        [0xD16CFE09, 0x94FDCCEB, 0x5001E420, 0x24126EA1]


@pytest.mark.parametrize("seeds", [(5, 3), (87654321, 2**31 - 1), (2**64 - 5, 2**63 + 7)])
def test_philox_words_continue_across_blocks(seeds):
    rng = _Philox(*seeds)
    expected = [rng() for _ in range(41)]
    assert host_words(*seeds, 0, 41).tolist() == expected
    assert host_words(*seeds, 6, 30).tolist() == expected[6:36]


@pytest.mark.parametrize("fused", [True, False])
def test_op_seed_orders_match_tensorflow(fused):
    # printed by TF 2.21: range(10).shuffle(B, seed=7), three iterations of the same dataset
    expected = {
        3: [[1, 2, 0, 3, 6, 4, 8, 5, 7, 9], [1, 0, 3, 2, 6, 7, 8, 4, 9, 5], [1, 3, 0, 2, 5, 4, 8, 7, 6, 9]],
        10: [[2, 8, 6, 5, 9, 1, 0, 3, 7, 4], [9, 1, 3, 0, 6, 4, 7, 8, 2, 5], [1, 9, 4, 2, 8, 3, 5, 7, 6, 0]],
        25: [[2, 8, 6, 5, 9, 1, 0, 3, 7, 4], [9, 1, 3, 0, 6, 4, 7, 8, 2, 5], [1, 9, 4, 2, 8, 3, 5, 7, 6, 0]],
    }
    for size, orders in expected.items():
        ds = Dataset.range(10).shuffle(size, seed=7)
        ds = ds if fused else unfused(ds)
        assert [_ints(ds) for _ in range(3)] == orders
        assert _tf_epochs(range(10), size, (_DEFAULT_GRAPH_SEED, 7), 3) == orders
        assert _ints(Dataset.range(10).shuffle(size, seed=7).repeat(3)) == sum(orders, [])


def test_fixed_order_and_repeat_before_shuffle_match_tensorflow():
    ds = Dataset.range(10).shuffle(10, seed=7, reshuffle_each_iteration=False)  # TF 2.21's order
    assert _ints(ds) == _ints(ds) == [7, 2, 0, 9, 8, 4, 5, 1, 6, 3]
    assert _ints(ds.repeat(2)) == [7, 2, 0, 9, 8, 4, 5, 1, 6, 3] * 2
    assert _ints(Dataset.range(7).repeat(2).shuffle(3, seed=7)) == [1, 2, 0, 3, 6, 4, 1, 5, 2, 3, 0, 5, 6, 4]
    assert _ints(Dataset.range(7).repeat(2).shuffle(25, seed=7)) == [6, 3, 2, 0, 6, 5, 1, 3, 5, 4, 1, 0, 2, 4]


def test_global_seed_orders_match_tensorflow():
    # TF 2.21 after tf.random.set_seed(11): op seeds come from the eager op-seed sequence
    tf.random.set_seed(11)
    assert _ints(Dataset.range(12).shuffle(5)) == [3, 2, 6, 1, 8, 5, 10, 7, 4, 11, 0, 9]
    assert _ints(Dataset.range(12).shuffle(12)) == [9, 1, 11, 3, 2, 7, 4, 10, 6, 5, 0, 8]
    tf.random.uniform([2])
    assert _ints(Dataset.range(12).shuffle(12)) == [2, 4, 9, 3, 6, 7, 0, 8, 10, 1, 11, 5]
    assert _ints(Dataset.range(12).shuffle(4, seed=1)) == [3, 1, 0, 6, 7, 4, 8, 2, 11, 9, 10, 5]
    ds = Dataset.range(12).shuffle(4)
    assert _ints(ds) == [0, 2, 5, 6, 3, 1, 7, 10, 4, 9, 11, 8]
    assert _ints(ds) == [1, 0, 5, 3, 4, 8, 9, 7, 2, 6, 10, 11]
    tf.random.set_seed(0)  # (0, 0) becomes (0, 2**31 - 1)
    assert _ints(Dataset.range(12).shuffle(12, seed=0)) == [10, 11, 3, 0, 5, 8, 7, 2, 6, 4, 1, 9]


def test_shuffled_batches_of_arrays_match_tensorflow():
    tf.random.set_seed(123)
    x = np.arange(40).reshape(20, 2) * 3
    ds = Dataset.from_tensor_slices((x, np.arange(20))).shuffle(8, seed=4).batch(6)
    first = [(bx.numpy()[:, 0].tolist(), by.numpy().tolist()) for bx, by in ds]
    assert first == [([36, 24, 48, 12, 54, 72], [6, 4, 8, 2, 9, 12]),
                     ([30, 78, 84, 60, 42, 66], [5, 13, 14, 10, 7, 11]),
                     ([102, 0, 108, 6, 96, 90], [17, 0, 18, 1, 16, 15]), ([18, 114], [3, 19])]
    assert [by.numpy().tolist() for _, by in ds] == [[0, 4, 5, 8, 11, 6], [2, 7, 3, 14, 12, 15],
                                                     [19, 18, 16, 10, 1, 13], [9, 17]]


@pytest.mark.parametrize("fused", [True, False])
@pytest.mark.parametrize("size", [1, 2, 7, 29, 30, 31, 100])
def test_orders_match_the_transcribed_kernel(fused, size):
    ds = Dataset.from_tensor_slices(np.arange(30)).shuffle(size, seed=size + 1)
    ds = ds if fused else unfused(ds)
    assert [_ints(ds) for _ in range(3)] == _tf_epochs(range(30), size, (_DEFAULT_GRAPH_SEED, size + 1), 3)
    fixed = Dataset.from_tensor_slices(np.arange(30)).shuffle(size, seed=3, reshuffle_each_iteration=False)
    fixed = fixed if fused else unfused(fixed)
    want = _tf_epochs(range(30), size, (_DEFAULT_GRAPH_SEED, 3), 2, reshuffle=False)
    assert _ints(fixed.repeat(2)) == sum(want, [])


@pytest.mark.parametrize("size", [1, 5, 64, 100, 1000])
def test_index_plan_matches_the_transcribed_kernel_over_chunks(size):
    chunks = [np.arange(0, 7), np.arange(7, 70), np.arange(70, 71), np.arange(71, 300)]
    got = np.concatenate(list(shuffle_indices(iter(chunks), size, (9, 4)))).tolist()
    assert got == _tf_epoch(range(300), size, (9, 4))
    assert np.concatenate(list(shuffle_indices(in_order(300, 64), size, (9, 4)))).tolist() == got

