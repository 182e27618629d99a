"""Tests of companion.random: TensorFlow's seed rules, Generator, stateless ops, distributions, errors."""

import subprocess
import sys

import jax
import numpy as np
import pytest

import companion as tf
import companion.random  # noqa: F401 - binds tf.random before companion/__init__ exports it
from companion._core._deferred import resolve
from companion._core._errors import InvalidArgumentError
from companion._ops import _random
from companion.random._philox import host_words

N = 100_000


@pytest.fixture(autouse=True)
def _fresh_seeds():
    """Each test starts without a global seed, and leaves none behind."""
    tf.random.set_seed(None)
    yield
    tf.random.set_seed(None)


def _program():
    """A little program touching every kind of stream; returns its numbers as NumPy arrays."""
    out = [tf.random.normal([3]), tf.random.uniform([2, 2]), tf.random.uniform([4], maxval=9, dtype=tf.int64),
           tf.random.truncated_normal([3]), tf.random.categorical([[0.0, 1.0, 2.0]], 5),
           tf.random.shuffle(tf.range(6)), tf.random.normal([2], seed=3), tf.random.normal([2], seed=3),
           tf.random.get_global_generator().normal([2])]
    return [np.asarray(x) for x in out]


def _same(a, b):
    return all(np.array_equal(x, y) for x, y in zip(a, b, strict=True))


# -- seed rules -------------------------------------------------------------------------

def test_set_seed_makes_a_program_repeat():
    tf.random.set_seed(1234)
    first = _program()
    tf.random.set_seed(1234)
    assert _same(first, _program())


def test_different_global_seeds_give_different_numbers():
    tf.random.set_seed(1)
    a = tf.random.normal([8]).numpy()
    tf.random.set_seed(2)
    assert not np.array_equal(a, tf.random.normal([8]).numpy())


def test_successive_calls_differ_with_and_without_a_global_seed():
    for seed in (None, 7):
        tf.random.set_seed(seed)
        assert not np.array_equal(tf.random.uniform([8]).numpy(), tf.random.uniform([8]).numpy())


def test_op_seed_is_counted_per_seed_and_reset_by_set_seed():
    tf.random.set_seed(5)
    first, second = tf.random.uniform([4], seed=1).numpy(), tf.random.uniform([4], seed=1).numpy()
    other = tf.random.uniform([4], seed=2).numpy()
    assert not np.array_equal(first, second) and not np.array_equal(first, other)
    tf.random.set_seed(5)
    tf.random.uniform([4])  # unseeded ops do not shift a seeded op's numbers
    tf.random.uniform([4], seed=2)
    assert np.array_equal(tf.random.uniform([4], seed=1).numpy(), first)
    assert np.array_equal(tf.random.uniform([4], seed=1).numpy(), second)


def test_op_seed_depends_on_the_global_seed():
    tf.random.set_seed(1)
    a = tf.random.uniform([4], seed=9).numpy()
    tf.random.set_seed(2)
    assert not np.array_equal(a, tf.random.uniform([4], seed=9).numpy())


def test_op_seed_without_global_seed_uses_tensorflows_default_global_seed():
    tf.random.set_seed(None)
    a = tf.random.normal([4], seed=3).numpy()
    tf.random.set_seed(None)
    b = tf.random.normal([4], seed=3).numpy()
    tf.random.set_seed(_random.DEFAULT_GLOBAL_SEED)
    assert np.array_equal(a, b)
    assert np.array_equal(a, tf.random.normal([4], seed=3).numpy())


def test_no_seed_at_all_differs_after_set_seed_none():
    a = tf.random.normal([8]).numpy()
    tf.random.set_seed(None)
    assert not np.array_equal(a, tf.random.normal([8]).numpy())


_SCRIPT = """
import numpy as np
import companion.random as r
def show(x): print(np.asarray(x).tolist())
show(r.normal([3], seed=4))
r.set_seed(42)
show(r.normal([3])); show(r.uniform([2], seed=4)); show(r.Generator.from_seed(8).normal([2]))
"""


def _run_script():
    result = subprocess.run([sys.executable, "-c", _SCRIPT], capture_output=True, text=True, check=True)
    return result.stdout.splitlines()


def _in_process_lines():
    lines = [tf.random.normal([3], seed=4)]
    tf.random.set_seed(42)
    lines += [tf.random.normal([3]), tf.random.uniform([2], seed=4),
              tf.random.Generator.from_seed(8).normal([2])]
    return [str(np.asarray(x).tolist()) for x in lines]


def test_seeded_numbers_are_the_same_in_another_process():
    assert _run_script() == _in_process_lines()


def test_unseeded_numbers_differ_between_processes():
    script = "import numpy as np, companion.random as r; print(np.asarray(r.normal([4])).tolist())"
    runs = [subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True).stdout
            for _ in range(2)]
    assert runs[0] != runs[1]


# -- the internal key API -----------------------------------------------------------------

def test_next_key_is_a_raw_uint32_pair_that_advances():
    tf.random.set_seed(0)
    k1, k2 = _random.next_key(), _random.next_key()
    assert k1.shape == (2,) and k1.dtype == np.uint32  # an array, or one pending in the eager batch
    k1 = resolve(k1)
    assert isinstance(k1, jax.Array) and k1.shape == (2,) and k1.dtype == np.uint32
    assert not np.array_equal(k1, k2)
    tf.random.set_seed(0)
    assert np.array_equal(_random.next_key(), k1)
    seeded = _random.next_key(seed=3)
    tf.random.set_seed(0)
    assert np.array_equal(_random.next_key(seed=3), seeded)


def test_host_keys_are_next_keys_split_in_numpy():
    rng = np.random.default_rng(1)
    for _ in range(50):  # oracle: JAX's own split
        key = rng.integers(0, 2 ** 32, 2, dtype=np.uint64).astype(np.uint32)
        expected = jax.random.split(jax.numpy.asarray(key))
        assert np.array_equal(np.stack(_random._threefry_split(key)), expected)
    for seed in (None, 3):
        tf.random.set_seed(5)
        expected = [np.asarray(resolve(_random.next_key(seed))) for _ in range(3)]
        tf.random.set_seed(5)
        got = [_random.next_host_key(seed), np.asarray(resolve(_random.next_key(seed))),
               _random.next_host_key(seed)]  # the same numbers, and the stream advances the same
        assert all(g.dtype == np.uint32 and np.array_equal(g, e) for g, e in zip(got, expected))


def test_streams_live_in_non_trainable_variables():
    tf.random.set_seed(None)
    draw = tf.function(lambda: tf.random.normal([1]))  # neither seed: companion's stream draws
    draw()
    stream = _random._Seeds.streams[None]
    assert stream._is_variable and not stream.trainable
    before = np.asarray(stream._value)
    draw()
    assert not np.array_equal(before, np.asarray(stream._value))


def test_seeded_ops_in_a_function_draw_as_tfs_graph_kernels():
    # TF seeds a function's n-th unseeded random op (global seed, n) and keeps each op's kernel (its
    # Philox counter) from call to call: the numbers of eager ops with op seeds n, call after call
    # (tests/parity/random/function_kernels holds TF's own)
    @tf.function
    def draw():
        return tf.random.uniform([3]), tf.random.normal([2]), tf.random.normal([2], seed=9)

    tf.random.set_seed(6)
    compiled = [[t.numpy() for t in draw()] for _ in range(2)]
    tf.random.set_seed(6)
    eager = [[tf.random.uniform([3], seed=0).numpy(), tf.random.normal([2], seed=1).numpy(),
              tf.random.normal([2], seed=9).numpy()] for _ in range(2)]
    for got, want in zip(compiled, eager):
        for a, b in zip(got, want):
            np.testing.assert_array_equal(a, b)
    tf.random.set_seed(6)  # every kernel starts again
    np.testing.assert_array_equal(draw()[0].numpy(), compiled[0][0])


def test_streams_advance_inside_compiled_functions_and_repeat_after_set_seed():
    @tf.function
    def draw():
        return tf.random.normal([2])

    tf.random.set_seed(11)
    first = [draw().numpy() for _ in range(3)]
    tf.random.set_seed(11)
    again = [draw().numpy() for _ in range(3)]
    assert not np.array_equal(first[0], first[1])
    for got, want in zip(again, first):
        np.testing.assert_array_equal(got, want)


def test_eager_seeded_ops_draw_tensorflows_numbers():
    """TF eager: op seeds from Python's Random(global seed), Philox(seed, seed2) kernels that keep
    their counter (256 blocks per output) while cached, reset by set_seed."""
    import random as python_random

    from companion.random import _philox

    tf.random.set_seed(1234)
    unseeded = tf.random.uniform([2]).numpy()
    op_seed = python_random.Random(1234).randint(0, 2**31 - 1)
    blocks = np.asarray(_philox._philox(np.asarray([0, 0, op_seed, 0], np.uint32),
                                        np.asarray([1234, 0], np.uint32)))
    expected = ((blocks[:2] & 0x7FFFFF) | 0x3F800000).astype(np.uint32).view(np.float32) - 1
    np.testing.assert_array_equal(unseeded, expected)
    first, second = tf.random.uniform([2], seed=1).numpy(), tf.random.uniform([2], seed=1).numpy()
    blocks = np.asarray(_philox._philox(np.asarray([512, 0, 1, 0], np.uint32),
                                        np.asarray([1234, 0], np.uint32)))
    np.testing.assert_array_equal(second, ((blocks[:2] & 0x7FFFFF) | 0x3F800000).astype(np.uint32)
                                  .view(np.float32) - 1)
    tf.random.set_seed(1234)
    np.testing.assert_array_equal(tf.random.uniform([2]).numpy(), unseeded)
    np.testing.assert_array_equal(tf.random.uniform([2], seed=1).numpy(), first)



def test_keras_internals_leave_tensorflows_op_seeds_alone():
    """TF's Keras draws initializers, dropout and noise from its own seeds (Python's `random`), so
    building and calling layers does not move the eager op-seed sequence of ``tf.random.*``."""
    tf.random.set_seed(7)
    alone = tf.random.normal([3]).numpy()
    tf.random.set_seed(7)
    tf.keras.layers.Dense(3).build((None, 2))
    tf.keras.layers.LSTM(2, dropout=0.5)(tf.ones([1, 2, 2]), training=True)
    tf.keras.layers.Dropout(0.5)(tf.ones([4, 4]), training=True)
    tf.keras.layers.GaussianNoise(0.1)(tf.ones([2]), training=True)
    np.testing.assert_array_equal(tf.random.normal([3]).numpy(), alone)

# -- distributions ------------------------------------------------------------------------

def test_normal_mean_and_stddev():
    x = tf.random.normal([N], mean=2.0, stddev=3.0, seed=1).numpy()
    assert x.dtype == np.float32
    assert abs(x.mean() - 2.0) < 0.05 and abs(x.std() - 3.0) < 0.05


def test_uniform_float_range_and_mean():
    x = tf.random.uniform([N], minval=-2.0, maxval=3.0, seed=1).numpy()
    assert x.min() >= -2.0 and x.max() < 3.0
    assert abs(x.mean() - 0.5) < 0.05


def test_uniform_int_covers_range_evenly():
    x = tf.random.uniform([N], minval=-3, maxval=4, dtype=tf.int32, seed=1).numpy()
    assert x.dtype == np.int32
    counts = np.bincount(x + 3, minlength=7) / N
    np.testing.assert_allclose(counts, np.full(7, 1 / 7), atol=0.01)


def test_truncated_normal_stays_within_two_stddevs():
    x = tf.random.truncated_normal([N], mean=1.0, stddev=2.0, seed=1).numpy()
    assert x.min() >= 1.0 - 4.0 and x.max() <= 1.0 + 4.0
    assert abs(x.mean() - 1.0) < 0.05
    assert abs(x.std() - 2.0 * 0.87962566) < 0.05  # stddev of N(0,1) truncated to [-2, 2]


def test_categorical_frequencies_match_softmax():
    logits = np.log(np.array([[0.1, 0.2, 0.7], [0.5, 0.25, 0.25]], np.float32))
    draws = tf.random.categorical(logits, N, seed=1)
    assert draws.shape == (2, N) and draws.dtype == tf.int64
    for row, probs in zip(draws.numpy(), np.exp(logits)):
        np.testing.assert_allclose(np.bincount(row, minlength=3) / N, probs, atol=0.01)


def test_seeded_eager_categorical_draws_by_the_running_sums_of_its_kernel_stream():
    # an independent reading of TF's CPU kernel: sample = first class whose running sum of
    # exp(logit - max) exceeds u * total, u from two Philox words (tests/parity/random/
    # categorical_tf_draws holds TF's own numbers)
    logits = np.log(np.array([[0.1, 0.6, 0.3], [0.25, 0.25, 0.5]], np.float32))
    tf.random.set_seed(9)
    draws = tf.random.categorical(logits, 6, seed=2).numpy()
    again = tf.random.categorical(logits, 6, seed=2).numpy()  # the kernel moved on
    words = host_words(9, 2, 0, 2 * 2 * 6).reshape(2, 6, 2).astype(np.uint64)
    u = (((words[..., 0] & np.uint64(0xFFFFF)) << np.uint64(32)) | words[..., 1]) / 2.0 ** 52
    for row in range(2):
        sums = np.cumsum(np.exp(logits[row].astype(np.float64) - logits[row].max()))
        expected = [int(np.argmax(sums > x * sums[-1])) for x in u[row]]
        assert draws[row].tolist() == expected
    assert not np.array_equal(draws, again)
    tf.random.set_seed(9)
    np.testing.assert_array_equal(tf.random.categorical(logits, 6, seed=2).numpy(), draws)


def test_categorical_int32_output():
    assert tf.random.categorical([[1.0, 1.0]], 4, dtype=tf.int32).dtype == tf.int32


def test_shuffle_permutes_rows():
    x = np.arange(20).reshape(10, 2)
    y = tf.random.shuffle(x, seed=1).numpy()
    assert sorted(map(tuple, y)) == sorted(map(tuple, x)) and not np.array_equal(x, y)


def test_seeded_eager_shuffles_follow_tfs_kernel_streams():
    # TF keeps one kernel (one Philox stream) per dtype and seeds: a repeated call moves on, another
    # dtype starts its own stream, and set_seed starts them all again (tests/parity/random/
    # shuffle_tf_order holds TF's own orders)
    tf.random.set_seed(5)
    first, second = (tf.random.shuffle(tf.range(50), seed=2).numpy() for _ in range(2))
    as_float = tf.random.shuffle(tf.range(50, dtype=tf.float32), seed=2).numpy()
    assert sorted(first.tolist()) == list(range(50)) and not np.array_equal(first, second)
    np.testing.assert_array_equal(as_float, first.astype(np.float32))
    tf.random.set_seed(5)
    np.testing.assert_array_equal(tf.random.shuffle(tf.range(50), seed=2).numpy(), first)
    rows = np.arange(100).reshape(50, 2)  # int64: that kernel's first call, rows in the first order
    np.testing.assert_array_equal(tf.random.shuffle(rows, seed=2).numpy(), rows[first])


def test_no_gradient_flows_through_a_shuffle():
    v = tf.Variable([1.0, 2.0, 3.0])
    for seed in (None, 4):
        with tf.GradientTape() as tape:
            y = tf.reduce_sum(tf.random.shuffle(v, seed=seed) * 2.0)
        assert tape.gradient(y, v) is None


def test_shuffle_strings():
    words = [b"a", b"b", b"c", b"d"]
    assert sorted(tf.random.shuffle(tf.constant(words)).numpy().tolist()) == words


def test_poisson_mean_and_shape():
    tf.random.set_seed(8)
    x = tf.random.poisson([N], [1.0, 6.0], seed=1)
    tf.random.set_seed(8)
    assert np.array_equal(x.numpy(), tf.random.poisson([N], [1.0, 6.0], seed=1).numpy())
    assert x.shape == (N, 2) and x.dtype == tf.float32
    np.testing.assert_allclose(x.numpy().mean(axis=0), [1.0, 6.0], rtol=0.03)


def test_gamma_mean_and_shape():
    tf.random.set_seed(8)
    x = tf.random.gamma([N], alpha=[2.0, 0.5], beta=2.0)
    tf.random.set_seed(8)
    assert np.array_equal(x.numpy(), tf.random.gamma([N], alpha=[2.0, 0.5], beta=2.0).numpy())
    assert x.shape == (N, 2)
    np.testing.assert_allclose(x.numpy().mean(axis=0), [1.0, 0.25], rtol=0.03)
    assert x.numpy().min() > 0


@pytest.mark.parametrize("dtype", [tf.float16, tf.bfloat16, tf.float64])
def test_float_dtypes(dtype):
    for fn in (tf.random.normal, tf.random.uniform, tf.random.truncated_normal):
        assert fn([3], dtype=dtype).dtype == dtype


@pytest.mark.parametrize("shape", [[2, 3], (2, 3), tf.TensorShape([2, 3]), np.array([2, 3])])
def test_shape_kinds(shape):
    assert tf.random.normal(shape).shape == (2, 3)


def test_int_and_tensor_shapes():
    assert tf.random.uniform(4).shape == (4,)
    assert tf.random.uniform(tf.constant([2, 1])).shape == (2, 1)
    assert tf.random.normal([]).shape == ()


def test_gradient_flows_to_mean_and_stddev():
    mean, stddev = tf.Variable(1.0), tf.Variable(2.0)
    with tf.GradientTape() as tape:
        x = tf.random.normal([5], mean=mean, stddev=stddev, seed=2)
    d_mean, d_stddev = tape.gradient(x, [mean, stddev])
    z = (x.numpy() - 1.0) / 2.0
    np.testing.assert_allclose(float(d_mean), 5.0)
    np.testing.assert_allclose(float(d_stddev), z.sum(), rtol=1e-5)


def test_gradient_flows_to_gamma_rate():
    beta = tf.Variable(2.0)
    with tf.GradientTape() as tape:
        x = tf.random.gamma([6], alpha=3.0, beta=beta, seed=2)
    np.testing.assert_allclose(float(tape.gradient(x, beta)), -x.numpy().sum() / 2.0, rtol=1e-5)


# -- stateless ops -----------------------------------------------------------------------------

def test_stateless_ops_depend_on_the_seed_only():
    a = tf.random.stateless_normal([4], seed=[1, 2]).numpy()
    tf.random.normal([3])
    assert np.array_equal(a, tf.random.stateless_normal([4], seed=[1, 2]).numpy())
    assert not np.array_equal(a, tf.random.stateless_normal([4], seed=[2, 1]).numpy())
    big = tf.constant([1 + 2**40, 2], dtype=tf.int64)
    assert not np.array_equal(a, tf.random.stateless_normal([4], seed=big).numpy())


def test_stateless_ops_do_not_advance_streams():
    tf.random.set_seed(3)
    expected = tf.random.uniform([3]).numpy()
    tf.random.set_seed(3)
    tf.random.stateless_uniform([3], seed=[4, 5])
    tf.random.stateless_truncated_normal([3], seed=[4, 5])
    tf.random.stateless_categorical([[0.0, 0.0]], 2, seed=[4, 5])
    assert np.array_equal(tf.random.uniform([3]).numpy(), expected)


def test_stateless_uniform_int():
    x = tf.random.stateless_uniform([N], seed=[1, 1], minval=0, maxval=3, dtype=tf.int64).numpy()
    assert x.dtype == np.int64 and set(np.unique(x)) == {0, 1, 2}


# -- Generator -------------------------------------------------------------------------------

def _values(*tensors):
    return [t.numpy() for t in tensors]


def test_generator_from_seed_is_deterministic_and_advances():
    g1, g2 = tf.random.Generator.from_seed(5), tf.random.Generator.from_seed(5)
    a, b = _values(g1.normal([4]), g1.normal([4]))
    assert not np.array_equal(a, b)
    assert _same([a, b], _values(g2.normal([4]), g2.normal([4])))
    assert not np.array_equal(a, tf.random.Generator.from_seed(6).normal([4]).numpy())


def test_generator_ignores_global_seed_and_streams():
    tf.random.set_seed(1)
    a = tf.random.Generator.from_seed(5).uniform([3]).numpy()
    tf.random.set_seed(2)
    tf.random.uniform([3])
    assert np.array_equal(a, tf.random.Generator.from_seed(5).uniform([3]).numpy())


def test_generator_state_copy_and_reset():
    g = tf.random.Generator.from_seed(1)
    assert g.state._is_variable and not g.state.trainable
    twin = tf.random.Generator(copy_from=g)
    clone = tf.random.Generator.from_state(g.state)
    expected = g.normal([3]).numpy()
    assert np.array_equal(twin.normal([3]).numpy(), expected)
    assert np.array_equal(clone.normal([3]).numpy(), expected)
    g.reset_from_seed(1)
    assert np.array_equal(g.normal([3]).numpy(), expected)


def test_generator_split_is_reproducible_and_independent():
    kids = tf.random.Generator.from_seed(0).split(3)
    again = tf.random.Generator.from_seed(0).split(3)
    draws = [k.uniform([4]).numpy() for k in kids]
    assert _same(draws, [k.uniform([4]).numpy() for k in again])
    assert len({d.tobytes() for d in draws}) == 3


def test_generator_distributions():
    g = tf.random.Generator.from_seed(3)
    x = g.normal([N], mean=-1.0, stddev=0.5).numpy()
    assert abs(x.mean() + 1.0) < 0.02 and abs(x.std() - 0.5) < 0.02
    assert np.abs(g.truncated_normal([N]).numpy()).max() <= 2.0
    ints = g.uniform([N], minval=5, maxval=8, dtype=tf.int64).numpy()
    assert set(np.unique(ints)) == {5, 6, 7}


def test_generator_make_seeds_feed_stateless_ops():
    seeds = tf.random.Generator.from_seed(2).make_seeds(3)
    assert seeds.shape == (2, 3) and seeds.dtype == tf.int64
    again = tf.random.Generator.from_seed(2).make_seeds(3)
    assert np.array_equal(seeds.numpy(), again.numpy())
    assert tf.random.stateless_normal([2], seed=seeds.numpy()[:, 0]).shape == (2,)


def test_global_generator_follows_set_seed_until_replaced():
    tf.random.set_seed(9)
    a = tf.random.get_global_generator().normal([3]).numpy()
    tf.random.set_seed(9)
    assert np.array_equal(tf.random.get_global_generator().normal([3]).numpy(), a)
    mine = tf.random.Generator.from_seed(1)
    tf.random.set_global_generator(mine)
    try:
        assert tf.random.get_global_generator() is mine
        before = np.asarray(mine.state._value)
        tf.random.set_seed(9)
        assert np.array_equal(np.asarray(mine.state._value), before)
    finally:
        _random.install_global_generator(None, default=False)


# -- errors ----------------------------------------------------------------------------------

def test_bad_dtypes_raise_type_errors():
    with pytest.raises(TypeError, match="floating dtype.*int32"):
        tf.random.normal([2], dtype=tf.int32)
    with pytest.raises(TypeError, match="bool"):
        tf.random.uniform([2], dtype=tf.bool)
    with pytest.raises(TypeError, match="int32 or int64"):
        tf.random.categorical([[0.0, 1.0]], 2, dtype=tf.float32)


def test_integer_uniform_needs_maxval():
    with pytest.raises(ValueError, match="maxval must be given.*int32.*maxval=None"):
        tf.random.uniform([2], dtype=tf.int32)
    with pytest.raises(InvalidArgumentError, match="minval < maxval"):
        tf.random.uniform([2], minval=5, maxval=5, dtype=tf.int32)


@pytest.mark.parametrize("shape, error", [([-1, 2], ValueError), ([None, 2], ValueError),
                                          ([1.5], TypeError), ("abc", TypeError),
                                          (tf.constant([1.0]), TypeError)])
def test_bad_shapes(shape, error):
    with pytest.raises(error, match="shape"):
        tf.random.normal(shape)


def test_bad_arguments():
    with pytest.raises(ValueError, match="2-D"):
        tf.random.categorical([0.0, 1.0], 2)
    with pytest.raises(ValueError, match="scalar"):
        tf.random.shuffle(3)
    with pytest.raises(TypeError, match="seed must be an integer.*'x'"):
        tf.random.normal([2], seed="x")
    with pytest.raises(TypeError, match="set_seed must be an integer"):
        tf.random.set_seed(1.5)
    with pytest.raises(ValueError, match="pair of integers"):
        tf.random.stateless_normal([2], seed=[1, 2, 3])
    with pytest.raises(ValueError, match="exactly one"):
        tf.random.Generator()
    with pytest.raises(TypeError, match="Generator"):
        tf.random.set_global_generator(42)


def test_a_failed_call_does_not_advance_the_stream():
    tf.random.set_seed(4)
    expected = tf.random.normal([2]).numpy()
    tf.random.set_seed(4)
    with pytest.raises(ValueError):
        tf.random.normal([-1])
    assert np.array_equal(tf.random.normal([2]).numpy(), expected)
