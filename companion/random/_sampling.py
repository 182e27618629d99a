"""Sampling shared by the random ops, the stateless ops and `Generator`: validation and pure ops.

Each ``sample_*`` function validates its arguments first and only then calls
``key_source()`` for a key, so a call that raises does not advance a random stream.
"""

import operator

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax

from companion._core import _dtypes
from companion._core._context import state
from companion._core._convert import as_input
from companion._core._deferred import Kernel, resolve
from companion._core._errors import InvalidArgumentError
from companion._core._op import op
from companion._core._shape import TensorShape
from companion._core._tensor import Tensor

FLOATS = ("float16", "bfloat16", "float32", "float64")
INTS = ("int32", "int64", "uint32", "uint64")


def sample_normal(key_source, shape, mean, stddev, dtype, what):
    """Normal samples ``mean + stddev * N(0, 1)``; ``key_source()`` gives the key."""
    dtype = float_dtype(dtype, what)
    shape = static_shape(shape, what)
    mean, stddev = as_input(mean, dtype), as_input(stddev, dtype)
    return _normal(_words_for(key_source(), shape, dtype), mean, stddev, shape=shape, dtype=dtype._np)


def sample_truncated_normal(key_source, shape, mean, stddev, dtype, what):
    """Normal samples redrawn outside two standard deviations of ``mean``."""
    dtype = float_dtype(dtype, what)
    shape = static_shape(shape, what)
    mean, stddev = as_input(mean, dtype), as_input(stddev, dtype)
    words = _words_for(key_source(), shape, dtype)
    return _truncated_normal(words, mean, stddev, shape=shape, dtype=dtype._np)


def sample_uniform(key_source, shape, minval, maxval, dtype, what):
    """Uniform samples in ``[minval, maxval)``; integer dtypes need ``maxval``."""
    dtype = dtype_in(dtype, FLOATS + INTS, what, "a floating or integer dtype")
    shape = static_shape(shape, what)
    if dtype.is_integer:
        low, high = int_bounds(minval, maxval, dtype, what)
        sample = _uniform_int
    else:
        low, high = as_input(minval, dtype), as_input(1.0 if maxval is None else maxval, dtype)
        sample = _uniform_float
    return sample(_words_for(key_source(), shape, dtype), low, high, shape=shape, dtype=dtype._np)


def sample_categorical(key_source, logits, num_samples, dtype, what, exact=None):
    """``num_samples`` class indices per row of the 2-D ``logits``; ``exact(logits, count, dtype)``,
    when given, may draw them instead (TF's own numbers), returning None to leave it to the key."""
    logits = as_input(logits)
    if logits.ndim != 2 or not logits.dtype.is_floating:
        raise ValueError(f"{what}: logits must be a 2-D float tensor [batch, num_classes]. Received "
                         f"shape {logits.shape}, dtype {logits.dtype.name}. Add a batch axis with "
                         "companion.expand_dims(logits, 0) for a single distribution.")
    dtype = dtype_in(_dtypes.int64 if dtype is None else dtype, ("int32", "int64"), what, "int32 or int64")
    count = static_shape([num_samples], f"{what} num_samples")[0]
    drawn = None if exact is None else exact(logits, count, dtype)
    if drawn is not None:
        return drawn
    return _categorical(Tensor(key_source()), logits, num_samples=count, dtype=dtype._np)


# -- validation ---------------------------------------------------------------------------

def float_dtype(dtype, what):
    """``dtype`` as a floating DType, or a TypeError listing the allowed ones."""
    return dtype_in(dtype, FLOATS, what, "a floating dtype")


def static_shape(shape, what):
    """A shape (list, tuple, TensorShape, int, int tensor) as a tuple of non-negative ints."""
    if isinstance(shape, TensorShape):
        shape = shape._dims
    elif isinstance(shape, Tensor) or getattr(shape, "_is_variable", False):
        shape = _shape_from_tensor(shape, what)
    elif isinstance(shape, (int, np.integer)) and not isinstance(shape, bool):
        shape = [shape]
    if not isinstance(shape, (list, tuple, np.ndarray)):
        raise TypeError(f"{what}: shape must be a list or tuple of ints, a TensorShape or an int "
                        f"tensor. Received: shape={shape!r}")
    return tuple(_dimension(d, shape, what) for d in shape)


def _shape_from_tensor(shape, what):
    array = np.asarray(shape)
    if array.dtype.kind not in "iu" or array.ndim > 1:
        raise TypeError(f"{what}: a shape tensor must be a 0-D or 1-D integer tensor. Received "
                        f"dtype {shape.dtype.name} and shape {shape.shape}.")
    return [int(d) for d in array.reshape(-1)]


def _dimension(d, shape, what):
    if d is None or isinstance(d, bool):
        raise ValueError(f"{what}: every dimension of the shape must be known. Received: shape={shape!r}")
    try:
        d = operator.index(d)
    except TypeError:
        raise TypeError(f"{what}: shape dimensions must be integers. Received: shape={shape!r}") from None
    if d < 0:
        raise ValueError(f"{what}: shape dimensions must be non-negative. Received: shape={shape!r}")
    return d


def dtype_in(dtype, allowed, what, expected):
    """``dtype`` as a DType if its name is in ``allowed``, else a TypeError."""
    dtype = _dtypes.as_dtype(dtype)
    if dtype.name not in allowed:
        raise TypeError(f"{what} cannot produce {dtype.name} values: expected {expected} "
                        f"({', '.join(allowed)}). Received: dtype={dtype.name}")
    return dtype


def int_bounds(minval, maxval, dtype, what):
    if maxval is None:
        raise ValueError(f"{what}: maxval must be given for the integer dtype {dtype.name} (there is "
                         f"no default upper bound). Received: maxval=None. Pass e.g. maxval=10.")
    low, high = as_input(minval, dtype), as_input(maxval, dtype)
    if not (low.is_traced or high.is_traced) and np.any(np.asarray(low) >= np.asarray(high)):
        raise InvalidArgumentError(f"{what}: need minval < maxval. Received: minval={minval!r}, "
                                   f"maxval={maxval!r}")
    return low, high


# -- random words: one compile per size bucket, not per shape -----------------------------

def random_words(key, count, dtype):
    """``count`` random unsigned words (uint32 or uint64) from ``key``, as a 1-D array.

    Eagerly, JAX compiles a threefry draw once per array size, which is slow (~0.2 s on
    CPU); this draws a bucket of a rounded-up size instead, compiled once per bucket, and
    the sampling op reads the first ``count`` words. With JAX's default partitionable
    threefry those are exactly the words of a draw of ``count``, which is what a staged
    (traced) call draws, so eager and compiled code give the same numbers for one key.
    """
    if state.staging or not jax.config.jax_threefry_partitionable:
        return jax.random.bits(resolve(key), (count,), dtype)
    return _words_kernel(key, size=_bucket(count), dtype=np.dtype(dtype))


_words_kernel = Kernel(lambda key, size, dtype: jax.random.bits(key, (size,), dtype), "random_words",
                       static_argnames=("size", "dtype"))


def _bucket(count):
    coarse = 0 if count <= 1 << 20 else 2  # powers of two; quarter octaves above 1M words
    step = 1 << max(4, (count - 1).bit_length() - coarse)
    return -(-count // step) * step


def _words_for(key, shape, dtype):
    wide = dtype == _dtypes.float64 or dtype.is_integer
    count = int(np.prod(shape, dtype=np.int64))
    return Tensor(random_words(key, count, jnp.uint64 if wide else jnp.uint32))


def unit_uniform(words, dtype):
    """Floats of ``dtype`` uniform in [0, 1): random mantissa bits under the exponent of 1.0."""
    dtype = np.dtype(dtype)
    uint = np.dtype(f"uint{dtype.itemsize * 8}")
    mantissa = (words >> (words.dtype.itemsize * 8 - jnp.finfo(dtype).nmant)).astype(uint)
    return lax.bitcast_convert_type(mantissa | np.array(1, dtype).view(uint), dtype) - np.array(1, dtype)


def _take(words, shape):
    return words[:int(np.prod(shape, dtype=np.int64))].reshape(shape)


def _compute_dtype(dtype):
    return np.dtype(np.float64) if dtype == np.float64 else np.dtype(np.float32)


# -- the pure ops (differentiable in mean, stddev, minval and maxval) ---------------------

@op("random_normal", static=("shape", "dtype"))
def _normal(words, mean, stddev, shape, dtype):
    compute = _compute_dtype(dtype)
    low = np.nextafter(np.array(-1, compute), np.array(1, compute))
    u = jnp.maximum(low, unit_uniform(_take(words, shape), compute) * 2 - 1)
    return (np.sqrt(2).astype(compute) * lax.erf_inv(u)).astype(dtype) * stddev + mean


@op("truncated_normal", static=("shape", "dtype"))
def _truncated_normal(words, mean, stddev, shape, dtype):
    compute = _compute_dtype(dtype)
    low, high = lax.erf(np.array(-np.sqrt(2), compute)), lax.erf(np.array(np.sqrt(2), compute))
    u = low + unit_uniform(_take(words, shape), compute) * (high - low)
    z = jnp.clip(np.sqrt(2).astype(compute) * lax.erf_inv(u), -2, 2)
    return z.astype(dtype) * stddev + mean


@op("random_uniform", static=("shape", "dtype"))
def _uniform_float(words, minval, maxval, shape, dtype):
    return unit_uniform(_take(words, shape), dtype) * (maxval - minval) + minval


@op("random_uniform_int", static=("shape", "dtype"))
def _uniform_int(words, minval, maxval, shape, dtype):
    low = _as_uint64(minval)
    offset = _take(words, shape) % (_as_uint64(maxval) - low)  # modular arithmetic: no overflow
    return _from_uint64(low + offset, dtype)


def _as_uint64(x):
    return x if x.dtype == jnp.uint64 else x.astype(jnp.int64).astype(jnp.uint64)


def _from_uint64(x, dtype):
    return x.astype(dtype) if dtype.kind == "u" else x.astype(jnp.int64).astype(dtype)


@op("multinomial", static=("num_samples", "dtype"))
def _categorical(key, logits, num_samples, dtype):
    draws = jax.random.categorical(key, logits, axis=-1, shape=(num_samples, logits.shape[0]))
    return draws.T.astype(dtype)
