"""The random ops of ``companion.random``: stateful ones (seed rules) and stateless ones (explicit seeds)."""

import jax
import jax.numpy as jnp
import numpy as np

from companion._core import _dtypes
from companion._core._context import state
from companion._core._convert import as_input
from companion._core._deferred import resolve
from companion._core._op import op
from companion._core._tensor import Tensor
from companion._ops._array import stack
from companion._ops._random import (
    consume_tf_op_seed,
    next_key,
    tf_eager_counter,
    tf_eager_seeds,
    tf_function_kernel,
)
from companion.random import _philox
from companion.random._sampling import (
    FLOATS,
    INTS,
    _categorical,
    dtype_in,
    float_dtype,
    int_bounds,
    sample_categorical,
    sample_normal,
    sample_truncated_normal,
    sample_uniform,
    static_shape,
)


def normal(shape, mean=0.0, stddev=1.0, dtype=_dtypes.float32, seed=None, name=None):
    """Samples from a normal distribution: ``mean + stddev * N(0, 1)``.

    Gradients flow to ``mean`` and ``stddev`` (the reparameterization trick).

    Args:
        shape: the output shape (a list/tuple of ints, a TensorShape or a 1-D int tensor).
        mean, stddev: scalars or tensors of ``dtype`` that broadcast with ``shape``.
        dtype: a floating dtype.
        seed: the op seed (see `set_seed`).
        name: accepted for TensorFlow compatibility; unused.

    Example:
        >>> import companion as tf
        >>> tf.random.normal([2, 3], seed=1).shape
        TensorShape([2, 3])
    """
    drawn = _tf_eager("normal", "RandomStandardNormal", shape, mean, stddev, dtype, seed, "random.normal")
    if drawn is not None:
        return drawn
    return sample_normal(lambda: next_key(seed), shape, mean, stddev, dtype, "random.normal")


def uniform(shape, minval=0, maxval=None, dtype=_dtypes.float32, seed=None, name=None):
    """Samples uniformly from ``[minval, maxval)`` (``maxval`` defaults to 1 for floats).

    Integer dtypes (int32, int64, uint32, uint64) need ``maxval``, as in TensorFlow.

    Example:
        >>> import companion as tf
        >>> dice = tf.random.uniform([1000], minval=1, maxval=7, dtype=tf.int32)
        >>> sorted(set(dice.numpy().tolist()))
        [1, 2, 3, 4, 5, 6]
    """
    drawn = _tf_eager("uniform", "RandomUniform", shape, minval, maxval, dtype, seed, "random.uniform")
    if drawn is not None:
        return drawn
    return sample_uniform(lambda: next_key(seed), shape, minval, maxval, dtype, "random.uniform")


def truncated_normal(shape, mean=0.0, stddev=1.0, dtype=_dtypes.float32, seed=None, name=None):
    """Normal samples, redrawn when more than two ``stddev`` away from ``mean``.

    Example:
        >>> import companion as tf
        >>> x = tf.random.truncated_normal([1000])
        >>> bool(abs(x.numpy()).max() <= 2.0)
        True
    """
    drawn = _tf_eager("truncated", "TruncatedNormal", shape, mean, stddev, dtype, seed,
                      "random.truncated_normal")
    if drawn is not None:
        return drawn
    return sample_truncated_normal(lambda: next_key(seed), shape, mean, stddev, dtype,
                                   "random.truncated_normal")


def _counted_key(seed):
    """A key from companion's stream for an op whose numbers are companion's own; TF's eager op-seed
    sequence moves on as that op would move it."""
    consume_tf_op_seed(seed)
    return next_key(seed)


def _tf_eager(kind, op_name, shape, first, second, dtype, seed, what):
    """With a global or an op seed, TensorFlow's own numbers: eagerly its op seeds (`tf_eager_seeds`)
    and per-kernel Philox counters (`tf_eager_counter`); in a `function`'s trace its graph's op
    seeds and a kernel state kept between calls (`tf_function_kernel`). None otherwise (unseeded,
    or another trace: a dataset function, ``strategy.run``): companion's key streams."""
    dtype = dtype_in(dtype, FLOATS + INTS, what, "a floating or integer dtype")
    shape = static_shape(shape, what)
    if dtype.is_integer:
        if kind != "uniform":
            return None
        kind, op_name = "uniform_int", "RandomUniformInt"
        first, second = int_bounds(first, second, dtype, what)
    else:
        first = as_input(first, dtype)
        second = as_input(1.0 if second is None and kind == "uniform" else second, dtype)
    if state.staging:  # in a function: the op's kernel state, kept from call to call
        kernel = tf_function_kernel(seed)
        if kernel is None:
            return None
        samples, moved = _philox.generator_draw(kernel, first, second, kind=kind, shape=shape,
                                                dtype=dtype._np)
        kernel.assign(moved)
        return samples
    seeds = tf_eager_seeds(seed)
    if seeds is None:
        return None
    count = int(np.prod(shape, dtype=np.int64))
    start = tf_eager_counter((op_name, dtype.name, seeds), count)
    philox_state = np.asarray([start, seeds[1], seeds[0]], np.int64)  # counter (start, seed2), key seed
    samples, _ = _philox.generator_draw(Tensor(jnp.asarray(philox_state)), first, second, kind=kind,
                                        shape=shape, dtype=dtype._np)
    return samples


def categorical(logits, num_samples, dtype=None, seed=None, name=None):
    """Draws class indices from categorical distributions given by unnormalized log-probabilities.

    Args:
        logits: a 2-D float tensor ``[batch, num_classes]``.
        num_samples: how many indices to draw per row.
        dtype: int64 (default) or int32.
        seed: the op seed (see `set_seed`).
        name: accepted for TensorFlow compatibility; unused.

    Returns:
        An int tensor of shape ``[batch, num_samples]``.

    Example:
        >>> import companion as tf
        >>> tf.random.categorical([[0.0, -1e9]], 3)
        <companion.Tensor: shape=(1, 3), dtype=int64, numpy=array([[0, 0, 0]])>
    """
    return sample_categorical(lambda: _counted_key(seed), logits, num_samples, dtype, "random.categorical",
                              exact=lambda *drawn: _tf_categorical(seed, *drawn))


_INLINE_COST = 210_000  # Eigen's parallelFor runs a kernel's rows on one thread below this cost


def _tf_categorical(seed, logits, count, dtype):
    """Eagerly under a global or an op seed, TF's CPU ``Multinomial`` numbers (its op seeds, its
    kernel's Philox counter: 256 blocks per output, 2 × count rounded up to 4 outputs per row).
    TF runs a costly batch's rows on several threads, each skipping ahead, so its numbers depend on
    the machine's cores: those, like unseeded draws, are companion's own. None: not drawn here."""
    if state.staging:
        return None
    seeds = tf_eager_seeds(seed)
    if seeds is None:
        return None
    batch, classes = (int(d) for d in logits.shape)
    if batch * count == 0:
        return Tensor(np.zeros((batch, count), dtype._np))
    cost = int(50 * (count * np.log(classes) / np.log(2) + classes))
    if batch > 1 and batch * cost >= _INLINE_COST:
        return _categorical(Tensor(next_key(seed)), logits, num_samples=count, dtype=dtype._np)
    outputs = batch * ((count + 3) // 4 * 4) * 2
    start = tf_eager_counter(("Multinomial", logits.dtype.name, dtype.name, seeds), outputs)
    rows = _philox.multinomial_rows(np.asarray(logits), count, *seeds, start)
    return Tensor(rows.astype(dtype._np))


def shuffle(value, seed=None, name=None):
    """Randomly permutes ``value`` along its first axis.

    Eagerly, with a global or an op seed, the order is TensorFlow's: its op seeds, its kernel's
    Philox stream (kept per dtype and seeds between calls) and its Fisher-Yates swaps. Inside a
    `function`, or unseeded, companion draws its own order. As in TF, no gradient flows through it.

    Example:
        >>> import companion as tf
        >>> tf.random.set_seed(7)
        >>> tf.random.shuffle(tf.range(10)).numpy()
        array([4, 8, 9, 1, 6, 7, 0, 3, 2, 5], dtype=int32)
    """
    value = as_input(value)
    if value.ndim == 0:
        raise ValueError(f"random.shuffle needs a tensor with at least one axis. Received a scalar: "
                         f"{value!s}. Wrap it in a list, or shuffle a 1-D tensor.")
    if state.staging:  # inside a function: companion's order (the graph's op-seed count moves on)
        consume_tf_op_seed(seed)
        seeds = None
    else:
        seeds = tf_eager_seeds(seed)
    if seeds is not None:
        order = _tf_shuffle_order(value, seeds)
        if order is None:
            return value
    elif value.dtype == _dtypes.string:
        order = np.asarray(jax.random.permutation(resolve(next_key(seed)), len(value)))
    else:
        return _shuffle(Tensor(next_key(seed)), value)
    if value.dtype == _dtypes.string:
        return Tensor(np.asarray(value)[order])
    return _rows(value, as_input(order))


def _tf_shuffle_order(value, seeds):
    """The row order TF's eager ``RandomShuffle`` kernel gives (None: it returns its input as is);
    its kernel reserves one Philox block per four of its ``size - 1`` draws."""
    dims = tuple(value.shape)
    size = dims[0]
    if size <= 1 or int(np.prod(dims, dtype=np.int64)) <= 1:
        return None
    start = tf_eager_counter(("RandomShuffle", value.dtype.name, seeds), _philox.shuffle_blocks(size),
                             blocks_per_output=1)
    return _philox.shuffle_order(size, *seeds, start_block=start)


def poisson(shape, lam, dtype=_dtypes.float32, seed=None, name=None):
    """Samples from Poisson distributions with rates ``lam``; output shape is ``shape + lam.shape``.

    Example:
        >>> import companion as tf
        >>> tf.random.poisson([10], [1.0, 5.0]).shape
        TensorShape([10, 2])
    """
    dtype = dtype_in(dtype, FLOATS + ("int32", "int64"), "random.poisson", "a float or int dtype")
    lam = as_input(lam)
    full = static_shape(shape, "random.poisson") + tuple(lam.shape)
    return _poisson(Tensor(_counted_key(seed)), lam, shape=full, dtype=dtype._np)


def gamma(shape, alpha, beta=None, dtype=_dtypes.float32, seed=None, name=None):
    """Samples from Gamma(``alpha``, rate ``beta``); output shape is ``shape + broadcast(alpha, beta)``.

    Gradients flow to ``alpha`` (implicit reparameterization) and ``beta``.

    Example:
        >>> import companion as tf
        >>> tf.random.gamma([10], alpha=[0.5, 1.5]).shape
        TensorShape([10, 2])
    """
    dtype = dtype_in(dtype, ("float16", "float32", "float64"), "random.gamma", "a floating dtype")
    alpha = as_input(alpha, dtype)
    beta = as_input(1.0 if beta is None else beta, dtype)
    batch = np.broadcast_shapes(tuple(alpha.shape), tuple(beta.shape))
    full = static_shape(shape, "random.gamma") + batch
    return _gamma(Tensor(_counted_key(seed)), alpha, beta, shape=full, dtype=dtype._np)


# -- stateless ops: the numbers depend on ``seed`` alone ---------------------------------

def stateless_normal(shape, seed, mean=0.0, stddev=1.0, dtype=_dtypes.float32, name=None,
                     alg="auto_select"):
    """Like `normal`, but a function of ``seed`` (a pair of ints): TensorFlow's own numbers for that
    seed (Philox, as TF's CPU kernels; ``alg`` is accepted and the Philox numbers are returned).

    Example:
        >>> import companion as tf
        >>> print(tf.random.stateless_normal([3], seed=[3, 4]))
        companion.Tensor([-0.17393383  1.6723547   0.34817016], shape=(3,), dtype=float32)
    """
    what = "random.stateless_normal"
    dtype = float_dtype(dtype, what)
    shape = static_shape(shape, what)
    mean, stddev = as_input(mean, dtype), as_input(stddev, dtype)
    return _philox.stateless_normal(stateless_seed(seed, what), mean, stddev, shape=shape, dtype=dtype._np)


def stateless_uniform(shape, seed, minval=0, maxval=None, dtype=_dtypes.float32, name=None,
                      alg="auto_select"):
    """Like `uniform`, but a function of ``seed`` (a pair of ints): TensorFlow's numbers for that
    seed. An integer dtype with ``minval`` and ``maxval`` both None gives every value of the dtype.

    Example:
        >>> import companion as tf
        >>> print(tf.random.stateless_uniform([3], seed=[1, 2]))
        companion.Tensor([0.8440604  0.19204533 0.9962232 ], shape=(3,), dtype=float32)
    """
    what = "random.stateless_uniform"
    dtype = dtype_in(dtype, FLOATS + INTS, what, "a floating or integer dtype")
    shape = static_shape(shape, what)
    seed = stateless_seed(seed, what)
    if dtype.is_integer:
        if minval is None and maxval is None:
            return _philox.stateless_uniform_full_int(seed, shape=shape, dtype=dtype._np)
        low, high = int_bounds(0 if minval is None else minval, maxval, dtype, what)
        return _philox.stateless_uniform_int(seed, low, high, shape=shape, dtype=dtype._np)
    low = as_input(0 if minval is None else minval, dtype)
    high = as_input(1.0 if maxval is None else maxval, dtype)
    return _philox.stateless_uniform_float(seed, low, high, shape=shape, dtype=dtype._np)


def stateless_truncated_normal(shape, seed, mean=0.0, stddev=1.0, dtype=_dtypes.float32, name=None,
                               alg="auto_select"):
    """Like `truncated_normal`, but a function of ``seed`` (a pair of ints): TensorFlow's numbers."""
    what = "random.stateless_truncated_normal"
    dtype = float_dtype(dtype, what)
    shape = static_shape(shape, what)
    mean, stddev = as_input(mean, dtype), as_input(stddev, dtype)
    return _philox.stateless_truncated_normal(stateless_seed(seed, what), mean, stddev, shape=shape,
                                              dtype=dtype._np)


def split(seed, num=2, alg="auto_select"):
    """``num`` new seeds (shape ``[num, 2]``, the seed's dtype) drawn from ``seed``, as TF draws them
    (`stateless_uniform` over the whole integer range).

    Example:
        >>> import companion as tf
        >>> tf.random.split([1, 2], 2).shape
        TensorShape([2, 2])
    """
    seed = stateless_seed(seed, "random.split")
    return stateless_uniform([int(num), 2], seed, minval=None, maxval=None, dtype=seed.dtype)


def fold_in(seed, data, alg="auto_select"):
    """A new seed ``[draw(seed), data]``: ``seed`` folded with the integer ``data`` (TF's rule)."""
    data = as_input(data)
    if not data.dtype.is_integer or data.shape.rank != 0:
        raise ValueError(f"random.fold_in: data must be a scalar integer. Received {data!s}")
    first = stateless_uniform([], seed, minval=None, maxval=None, dtype=data.dtype)
    return stack([first, data])


def stateless_categorical(logits, num_samples, seed, dtype=_dtypes.int64, name=None):
    """Like `categorical`, but a function of ``seed`` (a pair of ints)."""
    what = "random.stateless_categorical"
    return sample_categorical(lambda: stateless_key(seed, what), logits, num_samples, dtype, what)


def stateless_seed(seed, what):
    """``seed`` (an int tensor or list of shape [2]) as a tensor, checked."""
    seed = as_input(seed)
    if not seed.dtype.is_integer or tuple(seed.shape) != (2,):
        raise ValueError(f"{what}: seed must be a pair of integers (shape [2], int32 or int64). Received "
                         f"shape {seed.shape}, dtype {seed.dtype.name}. Pass e.g. seed=[1, 2].")
    return seed


def stateless_key(seed, what):
    """The raw JAX key for a stateless op's ``seed`` (the ops TF's Philox numbers are not made for)."""
    return _seed_key(stateless_seed(seed, what))._value


# -- pure ops ------------------------------------------------------------------------------

@op("random_shuffle")
def _shuffle(key, value):
    return jax.random.permutation(key, value, axis=0, independent=False)


@op("random_shuffle_rows")
def _rows(value, order):
    return value[order]


_shuffle.differentiable = _rows.differentiable = False  # TF registers no gradient for RandomShuffle


@op("random_poisson", static=("shape", "dtype"))
def _poisson(key, lam, shape, dtype):
    rate = lam if jnp.issubdtype(lam.dtype, jnp.floating) else lam.astype(jnp.float64)
    return jax.random.poisson(key, rate, shape).astype(dtype)


_poisson.differentiable = "RandomPoissonV2"  # TF registers no gradient: tape.gradient through it raises


@op("random_gamma", static=("shape", "dtype"))
def _gamma(key, alpha, beta, shape, dtype):
    draws = jax.random.gamma(key, jnp.broadcast_to(alpha, shape), shape, dtype) / beta
    return jnp.maximum(draws, jnp.finfo(dtype).tiny)  # as TensorFlow: never exactly 0


@op("stateless_seed_key")
def _seed_key(seed):
    words = seed.astype(jnp.int64).astype(jnp.uint64)
    low = (words & 0xFFFFFFFF).astype(jnp.uint32)
    high = (words >> 32).astype(jnp.uint32)
    return jax.random.fold_in(jax.random.fold_in(low, high[0]), high[1])


# -- companion's own streams, for Keras internals: TF's Keras seeds them from Python's `random`, never
# -- from TF's op seeds, so drawing them must not move TF's eager op-seed sequence either ----------

def stream_normal(shape, mean=0.0, stddev=1.0, dtype=_dtypes.float32):
    """Normal samples from companion's unseeded stream (no TF op seed taken)."""
    return sample_normal(lambda: next_key(None), shape, mean, stddev, dtype, "random.normal")


def stream_uniform(shape, minval=0, maxval=None, dtype=_dtypes.float32):
    """Uniform samples from companion's unseeded stream (no TF op seed taken)."""
    return sample_uniform(lambda: next_key(None), shape, minval, maxval, dtype, "random.uniform")


def stream_truncated_normal(shape, mean=0.0, stddev=1.0, dtype=_dtypes.float32):
    """Truncated normal samples from companion's unseeded stream (no TF op seed taken)."""
    return sample_truncated_normal(lambda: next_key(None), shape, mean, stddev, dtype,
                                   "random.truncated_normal")
