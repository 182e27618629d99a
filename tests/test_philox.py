"""TF's stateless random numbers: Philox-4x32-10 against the Random123 known-answer vectors, and the
conversions' invariants. The TF values themselves are checked by tests/parity/random/stateless_philox."""

import jax.numpy as jnp
import numpy as np
import pytest

import companion as tf
from companion.random import _philox

# Random123's known-answer tests for philox4x32-10: (counter, key) -> output
KNOWN_ANSWERS = [
    ((0, 0, 0, 0), (0, 0), (0x6627E8D5, 0xE169C58D, 0xBC57AC4C, 0x9B00DBD8)),
    ((0xFFFFFFFF,) * 4, (0xFFFFFFFF,) * 2, (0x408F276D, 0x41C83B0E, 0xA20BC7C6, 0x6D5451FD)),
    ((0x243F6A88, 0x85A308D3, 0x13198A2E, 0x03707344), (0xA4093822, 0x299F31D0),
     (0xD16CFE09, 0x94FDCCEB, 0x5001E420, 0x24126EA1)),
]


@pytest.mark.parametrize("counter,key,expected", KNOWN_ANSWERS)
def test_philox_block_matches_random123_known_answers(counter, key, expected):
    out = _philox._philox(jnp.asarray(counter, jnp.uint32), jnp.asarray(key, jnp.uint32))
    assert [int(v) for v in np.asarray(out)] == list(expected)


def test_blocks_advance_a_128_bit_counter_with_carry():
    seed = jnp.asarray([3, 4])
    key, counter = _philox._key_counter(seed)
    blocks = np.asarray(_philox._blocks(seed, np.arange(3)))
    for offset in range(3):
        value = sum(int(c) << (32 * i) for i, c in enumerate(np.asarray(counter))) + offset
        words = [(value >> (32 * i)) & 0xFFFFFFFF for i in range(4)]
        expected = np.asarray(_philox._philox(jnp.asarray(words, jnp.uint32), key))
        np.testing.assert_array_equal(blocks[offset], expected)


@pytest.mark.parametrize("dtype", [tf.float16, tf.bfloat16, tf.float32, tf.float64])
def test_uniform_samples_are_in_range_deterministic_and_seed_dependent(dtype):
    a = tf.random.stateless_uniform([4000], seed=[1, 2], dtype=dtype).numpy().astype(np.float64)
    b = tf.random.stateless_uniform([4000], seed=[1, 2], dtype=dtype).numpy().astype(np.float64)
    c = tf.random.stateless_uniform([4000], seed=[2, 1], dtype=dtype).numpy().astype(np.float64)
    np.testing.assert_array_equal(a, b)
    assert (a >= 0).all() and (a < 1).all() and not np.array_equal(a, c)
    assert abs(a.mean() - 0.5) < 0.03
    prefix = tf.random.stateless_uniform([7], seed=[1, 2], dtype=dtype).numpy().astype(np.float64)
    np.testing.assert_array_equal(prefix, a[:7])  # a shorter draw is the longer one's start, as in TF


def test_integers_fill_the_range_and_full_range_draws_are_the_raw_words():
    ints = tf.random.stateless_uniform([5000], seed=[7, 8], minval=-3, maxval=4, dtype=tf.int32).numpy()
    assert set(np.unique(ints)) == set(range(-3, 4))
    words = np.asarray(_philox._blocks(jnp.asarray([7, 8]), np.arange(2))).reshape(-1)
    full = tf.random.stateless_uniform([8], seed=[7, 8], minval=None, maxval=None, dtype=tf.int32).numpy()
    np.testing.assert_array_equal(full.view(np.uint32), words)
    wide = tf.random.stateless_uniform([4], seed=[7, 8], minval=None, maxval=None, dtype=tf.int64).numpy()
    np.testing.assert_array_equal(wide.view(np.uint64), words[0::2].astype(np.uint64)
                                  | (words[1::2].astype(np.uint64) << np.uint64(32)))
    with pytest.raises(tf.errors.InvalidArgumentError, match="minval < maxval"):
        tf.random.stateless_uniform([2], seed=[1, 2], minval=5, maxval=5, dtype=tf.int32)


def test_normals_have_unit_moments_and_truncated_ones_stay_within_two_deviations():
    normal = tf.random.stateless_normal([20000], seed=[5, 6]).numpy()
    assert abs(normal.mean()) < 0.03 and abs(normal.std() - 1) < 0.03
    truncated = tf.random.stateless_truncated_normal([20000], seed=[5, 6], dtype=tf.float64).numpy()
    assert np.abs(truncated).max() < 2.0 and abs(truncated.std() - 0.88) < 0.02
    scaled = tf.random.stateless_normal([5], seed=[5, 6], mean=3.0, stddev=2.0).numpy()
    np.testing.assert_allclose(scaled, 3.0 + 2.0 * normal[:5], rtol=1e-6)


def test_split_and_fold_in_are_full_range_draws_of_the_seed():
    seeds = tf.random.split(tf.constant([1, 2], tf.int64), 3)
    assert seeds.shape == (3, 2) and seeds.dtype == tf.int64
    expected = tf.random.stateless_uniform([3, 2], seed=[1, 2], minval=None, maxval=None, dtype=tf.int64)
    np.testing.assert_array_equal(seeds.numpy(), expected.numpy())
    folded = tf.random.fold_in([1, 2], 7).numpy()
    assert folded[1] == 7 and folded[0] == tf.random.split([1, 2], 1).numpy()[0, 0]
    with pytest.raises(ValueError, match="pair of integers"):
        tf.random.split([1, 2, 3])


def test_seeded_initializers_draw_from_the_stateless_stream():
    kernel = tf.keras.initializers.GlorotUniform(seed=1)((3, 2)).numpy()
    limit = np.sqrt(6 / (3 + 2))
    expected = tf.random.stateless_uniform((3, 2), seed=[1, 0], minval=-limit, maxval=limit).numpy()
    np.testing.assert_allclose(kernel, expected, rtol=1e-6)


def test_generator_reads_philox_blocks_from_its_state_and_steps_256_per_output():
    gen = tf.random.Generator.from_seed(5)
    assert gen.state.numpy().tolist() == [5, 0, 0]
    first = gen.uniform([3]).numpy()
    blocks = np.asarray(_philox._philox(jnp.asarray([5, 0, 0, 0], jnp.uint32), jnp.zeros(2, jnp.uint32)))
    expected = ((blocks[:3] & 0x7FFFFF) | 0x3F800000).astype(np.uint32).view(np.float32) - 1
    np.testing.assert_array_equal(first, expected)
    assert gen.state.numpy().tolist() == [5 + 3 * 256, 0, 0]
    gen.normal([5])
    assert gen.state.numpy().tolist() == [5 + 8 * 256, 0, 0]
    seeds = gen.make_seeds(2).numpy()
    assert seeds.shape == (2, 2) and (seeds[1] == 0).all()
    children = gen.split(2)
    assert [c.state.numpy()[:2].tolist() for c in children] == [[0, 0], [0, 0]]
    wide = tf.random.Generator.from_seed(2**64 + 3)
    assert wide.state.numpy().tolist() == [3, 1, 0]
    with pytest.raises(ValueError, match="int64\\[3\\]"):
        tf.random.Generator.from_state([1, 2])


def test_generator_draws_inside_a_function_advance_the_state():
    gen = tf.random.Generator.from_seed(9)
    reference = tf.random.Generator.from_seed(9)

    @tf.function
    def draw():
        return gen.normal([2])

    np.testing.assert_array_equal(draw().numpy(), reference.normal([2]).numpy())
    np.testing.assert_array_equal(draw().numpy(), reference.normal([2]).numpy())
    assert gen.state.numpy().tolist() == reference.state.numpy().tolist()
