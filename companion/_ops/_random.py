"""Random seeds and key streams: TensorFlow's global/op seed rules on JAX keys kept in Variables.

Every random op draws a fresh JAX key (a raw ``uint32[2]`` threefry key) from a *stream*
and samples with a pure JAX function, so the same op code runs eagerly, traced or
replayed by a tape. A stream is a non-trainable `Variable` holding a key; drawing splits
it and writes the new key back with ``_set_value``, so a staging interpreter that lifts
the Variables a function touches advances the stream on every call of the compiled code.

An op that TF would seed (a global seed, or an op seed) draws TensorFlow's own numbers instead,
eagerly (`tf_eager_seeds`, `tf_eager_counter`) and in a `function` (`tf_function_kernel`), with
`companion.random._philox`; the streams serve unseeded ops, other traces and the ops whose
numbers are companion's own.

Streams, following ``tf.random.set_seed``:

- ops without ``seed=`` share one stream, started from the global seed (or, when no
  global seed was set, from ``os.urandom`` at import: numbers differ between runs);
- each op seed has its own stream, started from (global seed, op seed), with TensorFlow's
  default global seed 87654321 when none was set: reproducible across processes;
- `set_seed` restarts every stream in place, so the same program after the same
  ``set_seed`` produces the same numbers.
"""

import operator
import os
import random as _python_random
import threading
import weakref

import jax
import jax.numpy as jnp
import numpy as np

from companion._core import _deferred
from companion._core._context import state
from companion._core._variable import Variable

DEFAULT_GLOBAL_SEED = 87654321  # TensorFlow's DEFAULT_GRAPH_SEED
_UNSEEDED, _OP_SEEDED = 0, 1  # stream tags (derive_key's first word)
GLOBAL_GENERATOR_TAG, FROM_SEED_TAG = 2, 3  # tags of Generator states


class _Seeds:
    """The global seed, the process entropy and the key streams (op seed or None → Variable)."""

    global_seed = None
    entropy = int.from_bytes(os.urandom(8), "little")
    streams = {}
    global_generator = None  # the Generator get_global_generator returns
    default_generator = False  # True while it is the one get_global_generator created
    op_seeds = None  # TF eager's op-seed generator: Python's Random(global seed)
    kernels = {}  # TF eager's cached random kernels: (op, dtype, seed, seed2) -> Philox blocks used
    # a `function`'s random kernels: id -> (a weak reference to the Variable keeping one op's
    # Philox state, its start); an entry goes with its Variable
    function_kernels = {}


def set_seed(seed):
    """Sets the global random seed and restarts every random stream.

    After ``set_seed(s)`` the same sequence of random ops produces the same numbers, in
    this process or another one. ``set_seed(None)`` goes back to non-deterministic seeds.
    Unlike TensorFlow, it also restarts the global `Generator` when that was created by
    `get_global_generator` (so re-running a notebook cell repeats its numbers).

    Args:
        seed: an integer, or None.

    Example:
        >>> import companion as tf
        >>> tf.random.set_seed(7); a = tf.random.uniform([2])
        >>> tf.random.set_seed(7); b = tf.random.uniform([2])
        >>> bool((a.numpy() == b.numpy()).all())
        True
    """
    _Seeds.global_seed = None if seed is None else check_seed(seed, "set_seed")
    _Seeds.op_seeds = None if seed is None else _python_random.Random(_Seeds.global_seed)
    restart_streams(int.from_bytes(os.urandom(8), "little") if seed is None else _Seeds.entropy)


def restart_streams(entropy):
    """Starts every random stream afresh, the unseeded ones from ``entropy`` (used while no global
    seed is set); `set_seed` calls it, and the test suite with a fixed ``entropy`` so that a test's
    unseeded numbers do not depend on which tests ran before it on the same worker."""
    _Seeds.entropy = entropy
    _Seeds.kernels = {}
    for op_seed, stream in _Seeds.streams.items():
        stream._set_value(jnp.asarray(_stream_start(op_seed)))
    for reference, start in list(_Seeds.function_kernels.values()):  # TF starts them afresh too
        kernel = reference()
        if kernel is not None:
            kernel._set_value(jnp.asarray(start))
    if _Seeds.default_generator:
        _Seeds.global_generator.reset_to_global_start()


_LOCK = threading.RLock()


_MAXINT32 = 2**31 - 1


def tf_eager_seeds(op_seed):
    """TF eager's ``(seed, seed2)`` for a random op (``random_seed.get_seed``): with a global seed,
    an op without a seed takes the next draw of Python's ``Random(global seed)``; an op seed without
    a global seed pairs with TF's default global seed. None when neither is set (TF: random)."""
    with _LOCK:
        if _Seeds.global_seed is not None:
            if op_seed is None:
                op_seed = _Seeds.op_seeds.randint(0, _MAXINT32)
            seeds = (_Seeds.global_seed % _MAXINT32, check_seed(op_seed, "seed") % _MAXINT32)
        elif op_seed is not None:
            seeds = (DEFAULT_GLOBAL_SEED, check_seed(op_seed, "seed") % _MAXINT32)
        else:
            return None
    return (0, _MAXINT32) if seeds == (0, 0) else seeds


def _graph_seeds(op_seed, index):
    """TF's ``(seed, seed2)`` for a random op of a graph (``random_seed.get_seed`` out of eager
    mode): (global seed, ``index``, the graph's count of unseeded random ops before it) without an
    op seed, (global seed or TF's default, op seed) with one; None with neither (TF: random)."""
    with _LOCK:
        global_seed = _Seeds.global_seed
    if op_seed is None:
        if global_seed is None:
            return None
        seeds = (global_seed % _MAXINT32, index % _MAXINT32)
    else:
        base = DEFAULT_GLOBAL_SEED if global_seed is None else global_seed % _MAXINT32
        seeds = (base, check_seed(op_seed, "seed") % _MAXINT32)
    return (0, _MAXINT32) if seeds == (0, 0) else seeds


def tf_graph_seeds():
    """TF's seeds for the first unseeded random op of a new graph (a tf.data function's, such as
    the one Keras's ``fit`` shuffles its arrays in), under a global seed; None without one."""
    return _graph_seeds(None, 0)


def _function_trace():
    """The `function` trace being built (it counts its random ops), or None."""
    trace = state.traces[-1] if state.traces else None
    return trace if getattr(trace, "random_ops", None) is not None else None


def in_function_trace():
    """Whether a `function`'s trace is being built (its random ops draw TF's numbers when seeded)."""
    return _function_trace() is not None


def tf_function_kernel(op_seed):
    """Inside a `function`'s trace, the Philox state Variable (``int64[3]``: counter, seed2, seed)
    of the random op being traced, seeded as TF's graph seeds it (`_graph_seeds`); the state then
    moves on with every call, as TF's cached kernel's does. None outside a function's trace, or
    with neither seed (TF: random): companion's own streams draw then."""
    trace = _function_trace()
    if trace is None:
        return None
    seeds = _graph_seeds(op_seed, trace.random_ops)
    if seeds is None:
        return None
    if op_seed is None:
        trace.random_ops += 1
    start = np.asarray([0, seeds[1], seeds[0]], np.int64)
    kernel = Variable(start, trainable=False, name="random_kernel", _is_rng_state=True, _unplaced=True)
    key = id(kernel)
    _Seeds.function_kernels[key] = (weakref.ref(kernel, lambda _: _Seeds.function_kernels.pop(key, None)),
                                    start)
    return kernel


def tf_eager_seeded(op_seed):
    """Whether TF would seed an eager random op (a global seed, or an op seed): then companion
    draws TF's numbers (`tf_eager_seeds`)."""
    return _Seeds.global_seed is not None or op_seed is not None


def consume_tf_op_seed(op_seed):
    """Advances TF eager's op-seed sequence as a random op whose numbers companion draws its own way
    does (shuffle, categorical, ...), so the ops after it get TF's seeds."""
    if not state.staging:
        tf_eager_seeds(op_seed)
    elif op_seed is None and _Seeds.global_seed is not None:  # in a function: the graph's count
        trace = _function_trace()
        if trace is not None:
            trace.random_ops += 1


def tf_eager_counter(kernel, outputs, blocks_per_output=256):
    """The Philox block counter a TF eager kernel starts this call at (its kernel, cached per op,
    dtype and seeds, keeps its generator between calls), moved on by the blocks the kernel reserves
    (TF's distributions: 256 per output; a shuffle: one per four 32-bit draws)."""
    with _LOCK:
        start = _Seeds.kernels.get(kernel, 0)
        _Seeds.kernels[kernel] = start + blocks_per_output * int(outputs)
    return start


def next_key(seed=None):
    """A fresh raw JAX PRNG key (``uint32[2]``) for one random op, advancing its stream. Eagerly
    it may be a `Pending` key of the deferred batch (``_deferred.resolve`` gives the array).

    Args:
        seed: the op seed, or None for the stream of ops without a seed.
    """
    with _LOCK:  # pipeline threads and the main thread share the streams
        stream = _stream(None if seed is None else check_seed(seed, "seed"))
        new_state, key = split_key(stored_key(stream))
        stream._set_value(new_state)
    return key


def next_host_key(seed=None):
    """`next_key`'s key as NumPy ``uint32[2]``, for a draw read on the host at once (the seed of a
    shuffle order): the same numbers and the same stream advance, split in NumPy, so a fresh
    process compiles no XLA program for it (JAX's split compiled in ~0.08 s, 10 % of a first
    ``fit`` epoch)."""
    if state.staging or not _host_split_matches_jax():
        return np.asarray(_deferred.resolve(next_key(seed)))
    with _LOCK:
        stream = _stream(None if seed is None else check_seed(seed, "seed"))
        new_state, key = _threefry_split(np.asarray(_deferred.resolve(stream._v)))
        stream._set_value(jax.device_put(new_state))
    return key


def stored_key(variable):
    """The key a state Variable holds: its traced alias while staging, else the stored value as is
    (a `Pending` key stays pending, so drawing from it can wait in the deferred batch)."""
    return variable._value if state.staging else variable._v


def key_array(key):
    """A raw key as a ``jax.Array``: a tracer or a deferred key stays as it is, NumPy is transferred
    (not compiled)."""
    if isinstance(key, jax.Array) or key.__class__ is _deferred.Pending:
        return key
    return jax.device_put(np.asarray(key))


def split_key(key):
    """``(next_state, subkey)`` from a raw key: traced when staging, else a deferrable kernel."""
    return _split(key) if state.staging else _split_kernel(key)


def derive_key(*words):
    """A raw key (NumPy ``uint32[2]``) determined by the integers ``words`` alone."""
    halves = [half for w in words for half in (w & 0xFFFFFFFF, (w >> 32) & 0xFFFFFFFF)]
    return np.random.SeedSequence(halves).generate_state(2, np.uint32)


def global_seed_or(default):
    """The global seed set by `set_seed`, or ``default`` when none is set."""
    return default if _Seeds.global_seed is None else _Seeds.global_seed


def global_generator_start():
    """The first state of the global Generator: from the global seed, else non-deterministic."""
    return derive_key(GLOBAL_GENERATOR_TAG, global_seed_or(_Seeds.entropy))


def global_generator():
    """The Generator installed as the global one, or None before the first use."""
    return _Seeds.global_generator


def install_global_generator(generator, default):
    """Makes ``generator`` the global one; ``default``: created by get_global_generator."""
    _Seeds.global_generator = generator
    _Seeds.default_generator = default


def check_seed(seed, what):
    """``seed`` as a Python int, or a TypeError naming ``what``."""
    if isinstance(seed, bool):
        raise TypeError(f"{what} must be an integer, not a bool. Received: {what}={seed!r}")
    try:
        return operator.index(seed)
    except TypeError:
        raise TypeError(f"{what} must be an integer (or None). Received: {what}={seed!r} of type "
                        f"{type(seed).__name__}. Pass e.g. {what}=42.") from None


# -- private helpers -------------------------------------------------------------------

def _stream(op_seed):
    stream = _Seeds.streams.get(op_seed)
    if stream is None:
        # process-wide: made inside a strategy's scope it is still not that strategy's Variable
        # (TF's random ops keep no state in a scope; a mirrored stream made every later eager
        # random op, and the updates that use its numbers, compile a second program)
        stream = Variable(_stream_start(op_seed), trainable=False, name="random_stream",
                          _is_rng_state=True, _unplaced=True)
        _Seeds.streams[op_seed] = stream
    return stream


def _stream_start(op_seed):
    if op_seed is None:
        return derive_key(_UNSEEDED, global_seed_or(_Seeds.entropy))
    return derive_key(_OP_SEEDED, global_seed_or(DEFAULT_GLOBAL_SEED), op_seed)


def _split(key):
    keys = jax.random.split(key)
    return keys[0], keys[1]


_split_kernel = _deferred.Kernel(_split, "split_key")

_THREEFRY_ROTATIONS = ((13, 15, 26, 6), (17, 29, 16, 24))


def _host_split_matches_jax():
    return jax.config.jax_default_prng_impl == "threefry2x32" and jax.config.jax_threefry_partitionable


def _threefry_split(key):
    """``jax.random.split(key)`` for a raw threefry key in NumPy (the partitionable split: key i
    is Threefry-2x32 of the counter (0, i)); returns the two new keys."""
    k0, k1 = (np.uint32(w) for w in key)
    keys = (k0, k1, k0 ^ k1 ^ np.uint32(0x1BD11BDA))
    x0, x1 = np.zeros(2, np.uint32) + keys[0], np.arange(2, dtype=np.uint32) + keys[1]
    with np.errstate(over="ignore"):
        for i in range(5):  # 20 rounds, a key injection after every 4
            for r in _THREEFRY_ROTATIONS[i % 2]:
                x0 = x0 + x1
                x1 = ((x1 << np.uint32(r)) | (x1 >> np.uint32(32 - r))) ^ x0
            x0 = x0 + keys[(i + 1) % 3]
            x1 = x1 + keys[(i + 2) % 3] + np.uint32(i + 1)
    pair = np.stack([x0, x1], axis=1)
    return pair[0], pair[1]
