"""TensorFlow's stateless random numbers, bit for bit: Philox-4x32-10 keyed by TF's scrambled seed.

TF (``StatelessRandomGetKeyCounter``) runs the seed through one Philox call to get a key and a
counter; each output group then takes the Philox block at ``counter + group`` (truncated normals:
``counter + 256 * group`` and the blocks after it, with rejection). Floats come from mantissa bits
(``[1, 2) - 1``), normals from Box-Muller on pairs (float32 math as TF's kernel rounds it), integers
by modulo of the range. With these, ``stateless_uniform/normal/truncated_normal`` and the Keras
initializers given a seed produce TensorFlow's numbers.
"""

import jax
import jax.numpy as jnp
import numpy as np

from companion._core._op import op

_M0, _M1 = np.uint64(0xD2511F53), np.uint64(0xCD9E8D57)
_W0, _W1 = np.uint32(0x9E3779B9), np.uint32(0xBB67AE85)
_LOW = np.uint64(0xFFFFFFFF)
_MASK64 = (1 << 64) - 1
_TWO_PI = 2.0 * np.pi
_TRUNCATED_BLOCKS = 4  # Philox blocks drawn per group of truncated normals (TF reserves 256)


def _philox(counter, key):
    """Philox-4x32-10 of ``counter`` (uint32 [..., 4]) under ``key`` (uint32 [2])."""
    c0, c1, c2, c3 = (counter[..., i] for i in range(4))
    key = jnp.asarray(key, jnp.uint32)  # wraps silently (NumPy scalars warn on the intended overflow)
    k0, k1 = key[0], key[1]
    for round_index in range(10):
        p0 = c0.astype(jnp.uint64) * _M0
        p1 = c2.astype(jnp.uint64) * _M1
        hi0, lo0 = (p0 >> 32).astype(jnp.uint32), (p0 & _LOW).astype(jnp.uint32)
        hi1, lo1 = (p1 >> 32).astype(jnp.uint32), (p1 & _LOW).astype(jnp.uint32)
        c0, c1, c2, c3 = hi1 ^ c1 ^ k0, lo1, hi0 ^ c3 ^ k1, lo0
        if round_index < 9:
            k0, k1 = k0 + _W0, k1 + _W1
    return jnp.stack([c0, c1, c2, c3], axis=-1)


def host_words(seed, seed2, first, count):
    """``count`` 32-bit words (NumPy uint32) of TF's ``PhiloxRandom(seed, seed2)`` stream from word
    ``first``, in the order its ``SingleSampleAdapter`` hands them out: the key is ``seed``'s two
    halves, the counter ``(block, seed2)`` as two 64-bit halves (no scrambling, unlike the stateless
    ops). tf.data's shuffle and its seed generator draw from this stream; NumPy, so nothing compiles."""
    blocks = np.arange(first // 4, (first + count + 3) // 4, dtype=np.uint64)
    seed, seed2 = int(seed) & _MASK64, int(seed2) & _MASK64
    c0, c1 = (blocks & _LOW).astype(np.uint32), (blocks >> np.uint64(32)).astype(np.uint32)
    c2 = np.full(len(blocks), seed2 & 0xFFFFFFFF, np.uint32)
    c3 = np.full(len(blocks), seed2 >> 32, np.uint32)
    k0, k1 = seed & 0xFFFFFFFF, seed >> 32
    for _ in range(10):
        p0 = c0.astype(np.uint64) * _M0
        p1 = c2.astype(np.uint64) * _M1
        c0, c1, c2, c3 = ((p1 >> np.uint64(32)).astype(np.uint32) ^ c1 ^ np.uint32(k0), p1.astype(np.uint32),
                          (p0 >> np.uint64(32)).astype(np.uint32) ^ c3 ^ np.uint32(k1), p0.astype(np.uint32))
        k0, k1 = (k0 + int(_W0)) & 0xFFFFFFFF, (k1 + int(_W1)) & 0xFFFFFFFF
    words = np.stack([c0, c1, c2, c3], axis=1).reshape(-1)
    return words[first % 4:first % 4 + count]


def shuffle_blocks(size):
    """The Philox blocks TF's ``RandomShuffle`` kernel reserves for ``size`` rows (``size - 1``
    32-bit draws, four a block; none for one row)."""
    return (size + 2) // 4 if size > 1 else 0


def shuffle_order(size, seed, seed2, start_block=0):
    """The order TF's ``RandomShuffle`` kernel gives ``size`` rows (NumPy int64): ``size - 1`` words
    of ``PhiloxRandom(seed, seed2)`` from block ``start_block``, swapping ``i`` with
    ``i + word % (size - i)`` (its Fisher-Yates, on the host: nothing compiles)."""
    draws = size - 1
    words = host_words(seed, seed2, 4 * start_block, draws).astype(np.int64)
    targets = (words % np.arange(size, 1, -1, dtype=np.int64) + np.arange(draws)).tolist()
    order = list(range(size))
    for i, j in enumerate(targets):
        order[i], order[j] = order[j], order[i]
    return np.asarray(order, np.int64)


def multinomial_rows(logits, num_samples, seed, seed2, start_block):
    """TF's CPU ``Multinomial`` kernel on the host (NumPy ``logits [batch, classes]``): per row the
    running sum of ``exp(logit - max)`` over finite logits, in float64, and per sample the first
    class whose sum exceeds ``RandDouble() * total`` (two 32-bit words: 20 + 32 mantissa bits). The
    rows draw one after another from block ``start_block``, as the kernel's single shard does."""
    values = np.asarray(logits)
    batch, _ = values.shape
    finite = np.isfinite(values)
    top = np.where(finite, values, -np.inf).max(axis=1, initial=np.finfo(values.dtype).min)
    weights = np.where(finite, np.exp(values.astype(np.float64) - top.astype(np.float64)[:, None]), 0.0)
    sums = np.cumsum(weights, axis=1)
    words = host_words(seed, seed2, 4 * start_block, 2 * batch * num_samples).astype(np.uint64)
    words = words.reshape(batch, num_samples, 2)
    mantissas = ((words[..., 0] & np.uint64(0xFFFFF)) << np.uint64(32)) | words[..., 1]
    targets = mantissas.astype(np.float64) * 2.0 ** -52 * sums[:, -1:]
    return np.stack([np.searchsorted(sums[b], targets[b], side="right") for b in range(batch)])


def _key_counter(seed):
    """TF's ``GenerateKey``: the key and the starting counter for an int seed pair."""
    words = seed.astype(jnp.int64).astype(jnp.uint64)
    counter = jnp.stack([words[0] & _LOW, words[0] >> 32, words[1] & _LOW, words[1] >> 32]).astype(jnp.uint32)
    mixed = _philox(counter, jnp.asarray([0x3EC8F720, 0x02461E29], jnp.uint32))
    zero = jnp.zeros((), jnp.uint32)
    return mixed[:2], jnp.stack([zero, zero, mixed[2], mixed[3]])


def state_key_counter(state):
    """The key and counter of a `Generator`'s Philox state ``int64[3]``: counter words 0-1, key 2."""
    words = state.astype(jnp.uint64)
    counter = jnp.stack([words[0] & _LOW, words[0] >> 32, words[1] & _LOW, words[1] >> 32]).astype(jnp.uint32)
    return jnp.stack([words[2] & _LOW, words[2] >> 32]).astype(jnp.uint32), counter


def advanced_state(state, count):
    """``state`` with its 128-bit counter moved on by ``256 * count`` (TF reserves 256 per output)."""
    words = state.astype(jnp.uint64)
    low = words[0] + np.uint64(256 * count)
    high = words[1] + (low < words[0]).astype(jnp.uint64)
    return jnp.stack([low, high, words[2]]).astype(jnp.int64)


def _blocks(source, offsets):
    """The Philox blocks (uint32 [..., 4]) at ``counter + offsets`` (a NumPy int array); ``source``
    is a seed pair (TF's stateless ops) or a ``(key, counter)`` pair (a `Generator`)."""
    key, counter = source if isinstance(source, tuple) else _key_counter(source)
    low = counter[0].astype(jnp.uint64) | (counter[1].astype(jnp.uint64) << 32)
    high = counter[2].astype(jnp.uint64) | (counter[3].astype(jnp.uint64) << 32)
    moved = low + jnp.asarray(offsets, jnp.uint64)
    high = high + (moved < low).astype(jnp.uint64)
    counters = jnp.stack([moved & _LOW, moved >> 32, jnp.broadcast_to(high & _LOW, moved.shape),
                          jnp.broadcast_to(high >> 32, moved.shape)], axis=-1).astype(jnp.uint32)
    return _philox(counters, key)


def _groups(count, size):
    return -(-count // size)


def _unit_float32(bits):
    return jax.lax.bitcast_convert_type((bits & 0x7FFFFF) | 0x3F800000, jnp.float32) - 1.0


def _unit_float64(high, low):
    mantissa = ((high & 0xFFFFF).astype(jnp.uint64) << 32) | low.astype(jnp.uint64)
    return jax.lax.bitcast_convert_type(mantissa | np.uint64(1023 << 52), jnp.float64) - 1.0


def _unit_half(bits, dtype):
    if dtype == jnp.bfloat16:
        pattern = ((bits & 0x7F) | (127 << 7)).astype(jnp.uint16)
    else:
        pattern = ((bits & 0x3FF) | (15 << 10)).astype(jnp.uint16)
    return jax.lax.bitcast_convert_type(pattern, dtype) - jnp.asarray(1.0, dtype)


def _box_muller32(x0, x1):
    """TF's BoxMullerFloat: float32 values, the transcendental steps correctly rounded."""
    u1 = jnp.maximum(_unit_float32(x0), np.float32(1.0e-7))
    v1 = (_TWO_PI * _unit_float32(x1).astype(jnp.float64)).astype(jnp.float32).astype(jnp.float64)
    radius = (np.float32(-2.0) * jnp.log(u1.astype(jnp.float64)).astype(jnp.float32)).astype(jnp.float64)
    radius = jnp.sqrt(radius).astype(jnp.float32)
    return jnp.sin(v1).astype(jnp.float32) * radius, jnp.cos(v1).astype(jnp.float32) * radius


def _box_muller64(x0, x1, x2, x3):
    u1 = jnp.maximum(_unit_float64(x0, x1), 1.0e-7)
    v1 = _TWO_PI * _unit_float64(x2, x3)
    radius = jnp.sqrt(-2.0 * jnp.log(u1))
    return jnp.sin(v1) * radius, jnp.cos(v1) * radius


def unit_uniform(seed, count, dtype):
    """``count`` TF uniform samples in ``[0, 1)`` of float ``dtype``."""
    if dtype == jnp.float64:
        bits = _blocks(seed, np.arange(_groups(count, 2)))
        pairs = jnp.stack([_unit_float64(bits[:, 0], bits[:, 1]), _unit_float64(bits[:, 2], bits[:, 3])], 1)
        return pairs.reshape(-1)[:count]
    bits = _blocks(seed, np.arange(_groups(count, 4))).reshape(-1)[:count]
    if dtype in (jnp.float16, jnp.bfloat16):
        return _unit_half(bits, dtype)
    return _unit_float32(bits)


def uniform_int(seed, count, dtype, low, high):
    """``count`` TF integers ``low + bits % (high - low)`` (``low``/``high`` None: every value)."""
    wide = jnp.dtype(dtype).itemsize == 8
    if wide:
        bits = _blocks(seed, np.arange(_groups(count, 2)))
        words = jnp.stack([bits[:, 0].astype(jnp.uint64) | (bits[:, 1].astype(jnp.uint64) << 32),
                           bits[:, 2].astype(jnp.uint64) | (bits[:, 3].astype(jnp.uint64) << 32)], 1)
        words = words.reshape(-1)[:count]
        unsigned = jnp.uint64
    else:
        words = _blocks(seed, np.arange(_groups(count, 4))).reshape(-1)[:count]
        unsigned = jnp.uint32
    if low is None:
        return jax.lax.bitcast_convert_type(words, dtype) if jnp.dtype(dtype).kind == "i" else \
            words.astype(dtype)
    span = (high.astype(dtype).astype(unsigned) - low.astype(dtype).astype(unsigned))
    return (low.astype(dtype).astype(unsigned) + words % span).astype(dtype)


def standard_normal(seed, count, dtype):
    """``count`` TF standard normal samples (float32 Box-Muller, cast for half types)."""
    if dtype == jnp.float64:
        bits = _blocks(seed, np.arange(_groups(count, 2)))
        first, second = _box_muller64(bits[:, 0], bits[:, 1], bits[:, 2], bits[:, 3])
        return jnp.stack([first, second], 1).reshape(-1)[:count]
    bits = _blocks(seed, np.arange(_groups(count, 4)))
    a0, a1 = _box_muller32(bits[:, 0], bits[:, 1])
    b0, b1 = _box_muller32(bits[:, 2], bits[:, 3])
    return jnp.stack([a0, a1, b0, b1], 1).reshape(-1)[:count].astype(dtype)


def truncated_normal(seed, count, dtype):
    """``count`` TF normal samples within two standard deviations: each group of outputs takes the
    first accepted Box-Muller candidates from its own reserved run of Philox blocks."""
    group = 2 if dtype == jnp.float64 else 4
    groups = _groups(count, group)
    reserved = group * 256 // 4  # TF's Philox blocks reserved per group
    offsets = np.arange(groups)[:, None] * reserved + np.arange(_TRUNCATED_BLOCKS)[None, :]
    bits = _blocks(seed, offsets).reshape(groups, -1)
    if dtype == jnp.float64:
        first, second = _box_muller64(bits[:, 0::4], bits[:, 1::4], bits[:, 2::4], bits[:, 3::4])
    else:
        first, second = _box_muller32(bits[:, 0::2], bits[:, 1::2])
    candidates = jnp.stack([first, second], -1).reshape(groups, -1)
    accepted = jnp.abs(candidates) < 2.0
    rank = jnp.cumsum(accepted, axis=1) - 1
    chosen = [jnp.argmax(accepted & (rank == r), axis=1) for r in range(group)]
    picked = jnp.stack([jnp.take_along_axis(candidates, c[:, None], 1)[:, 0] for c in chosen], 1)
    return picked.reshape(-1)[:count].astype(dtype)


def _scale_shift(x, scale, shift):
    """``x * scale + shift`` rounded after each step, as TF's separate ops do. The compiler fuses a
    multiply and an add into one rounding; adding ``shift - shift`` (a zero it may not fold, NaN rules)
    gives that fused step nothing to change, so the product is rounded before ``shift`` is added."""
    zero = shift - shift
    return (x * scale + zero) + shift


@op("stateless_random_uniform", static=("shape", "dtype"))
def stateless_uniform_float(seed, minval, maxval, shape, dtype):
    count = int(np.prod(shape, dtype=np.int64))
    unit = unit_uniform(seed, count, dtype).reshape(shape)
    return _scale_shift(unit, maxval - minval, minval)


@op("stateless_random_uniform_int", static=("shape", "dtype"))
def stateless_uniform_int(seed, minval, maxval, shape, dtype):
    return uniform_int(seed, int(np.prod(shape, dtype=np.int64)), dtype, minval, maxval).reshape(shape)


@op("stateless_random_uniform_full_int", static=("shape", "dtype"))
def stateless_uniform_full_int(seed, shape, dtype):
    return uniform_int(seed, int(np.prod(shape, dtype=np.int64)), dtype, None, None).reshape(shape)


@op("stateless_random_normal", static=("shape", "dtype"))
def stateless_normal(seed, mean, stddev, shape, dtype):
    count = int(np.prod(shape, dtype=np.int64))
    return _scale_shift(standard_normal(seed, count, dtype).reshape(shape), stddev, mean)


@op("stateless_truncated_normal", static=("shape", "dtype"))
def stateless_truncated_normal(seed, mean, stddev, shape, dtype):
    count = int(np.prod(shape, dtype=np.int64))
    return _scale_shift(truncated_normal(seed, count, dtype).reshape(shape), stddev, mean)


@op("generator_draw", static=("kind", "shape", "dtype"))
def generator_draw(state, first, second, kind, shape, dtype):
    """One `Generator` draw from its Philox ``state`` (``int64[3]``): ``(samples, next state)``.
    ``first``/``second`` are (minval, maxval) or (mean, stddev); kinds as the stateless ops."""
    count = int(np.prod(shape, dtype=np.int64))
    source = state_key_counter(state)
    if kind == "uniform":
        samples = _scale_shift(unit_uniform(source, count, dtype).reshape(shape), second - first, first)
    elif kind == "uniform_int":
        samples = uniform_int(source, count, dtype, first, second).reshape(shape)
    elif kind == "full_int":
        samples = uniform_int(source, count, dtype, None, None).reshape(shape)
    elif kind == "normal":
        samples = _scale_shift(standard_normal(source, count, dtype).reshape(shape), second, first)
    else:
        samples = _scale_shift(truncated_normal(source, count, dtype).reshape(shape), second, first)
    return samples, advanced_state(state, count)
