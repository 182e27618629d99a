"""Keras 3's core ops (conversion, ``cast``, ``shape``, control flow, slices and scatters) and its
``keras.ops.math`` functions (segment reductions, ``top_k``, ``logsumexp``, ``erfinv``, ...)."""

import re

import jax
import jax.numpy as jnp
import numpy as np

import companion as _tf
from companion._core._convert import is_tensor as _is_tensor
from companion._core._errors import InvalidArgumentError, InvalidArgumentTypeError
from companion._core._op import Op
from companion._ops import _gradient_kernels
from companion.keras.ops._base import (
    INT32,
    call,
    define,
    dtype_of,
    hashable,
    prepare,
    standardize,
    tensor,
)

__all__ = ["associative_scan", "cast", "cond", "convert_to_numpy", "convert_to_tensor", "custom_gradient",
           "dtype", "extract_sequences", "fft", "fft2", "fori_loop", "ifft2", "in_top_k", "irfft",
           "is_tensor", "istft", "jvp", "map", "rfft", "saturate_cast", "scan", "scatter", "scatter_update",
           "segment_max", "segment_min", "segment_prod", "segment_sum", "shape", "slice", "slice_update",
           "stft", "stop_gradient", "switch", "top_k", "unstack", "vectorize", "vectorized_map", "while_loop"]


def convert_to_tensor(x, dtype=None, sparse=None, ragged=None):
    """``x`` as a companion Tensor (Python floats become float32, ints int32), cast to ``dtype`` if given."""
    return tensor(x, standardize(dtype))


def convert_to_numpy(x):
    """``x`` as a NumPy array (a Python value as NumPy reads it: ``2`` gives int64, as Keras on TF)."""
    return np.asarray(x._value) if _is_tensor(x) else np.asarray(x)


def is_tensor(x):
    """True for companion Tensors and Variables."""
    return _is_tensor(x)


def cast(x, dtype):
    """``x`` converted to ``dtype``."""
    return tensor(x, standardize(dtype))


def saturate_cast(x, dtype):
    """``x`` converted to ``dtype``, first clipped to the range ``dtype`` can hold."""
    return _tf.saturate_cast(tensor(x), _tf.as_dtype(standardize(dtype)))


def dtype(x):
    """The dtype name of ``x`` (``"float32"``)."""
    return dtype_of(tensor(x)).name


def shape(x):
    """The shape of ``x`` as a tuple (``None`` for a dimension unknown while tracing)."""
    return tuple(tensor(x).shape)


def stop_gradient(variable):
    """``variable``'s value, through which no gradient flows."""
    return _tf.stop_gradient(tensor(variable))


def cond(pred, true_fn, false_fn):
    """``true_fn()`` if ``pred`` else ``false_fn()`` (a graph conditional inside `function`)."""
    return _tf.cond(pred, true_fn, false_fn)


def while_loop(cond, body, loop_vars, maximum_iterations=None):
    """Runs ``loop_vars = body(*loop_vars)`` while ``cond(*loop_vars)``; the final loop variables.

    As Keras: a tuple or list of loop variables is passed unpacked to ``cond`` and ``body``, a single
    value as is, and the result has the structure of ``loop_vars``.
    """
    packed = isinstance(loop_vars, (tuple, list))
    values = tuple(loop_vars) if packed else (loop_vars,)

    def step(*vs):
        out = body(*vs) if packed else body(vs[0])
        return tuple(out) if packed else (out,)

    out = _tf.while_loop(lambda *vs: cond(*vs) if packed else cond(vs[0]), step, values,
                         maximum_iterations=maximum_iterations)
    out = tuple(out) if isinstance(out, (tuple, list)) else (out,)
    return (list(out) if isinstance(loop_vars, list) else out) if packed else out[0]


def fori_loop(lower, upper, body_fun, init_val):
    """``init_val`` passed through ``body_fun(i, val)`` for ``i`` in ``range(lower, upper)``."""
    index = tensor(lower, INT32)
    _, out = _tf.while_loop(lambda i, v: i < upper, lambda i, v: (i + 1, body_fun(i, v)), (index, init_val))
    return out


def scan(f, init, xs=None, length=None, reverse=False, unroll=1):
    """JAX's ``scan``: ``carry, y = f(carry, x)`` over the leading axis of ``xs``; ``(carry, stacked ys)``."""
    if xs is None and length is None:
        raise InvalidArgumentError("keras.ops.scan needs `xs` or `length`; received neither. Pass the "
                                   "sequence to scan over, or length=N to run f N times with x=None.")
    steps = length if xs is None else _tf.nest.flatten(xs)[0].shape[0]
    carry, ys = init, []
    for i in (range(steps - 1, -1, -1) if reverse else range(steps)):
        x = None if xs is None else _tf.nest.map_structure(lambda a, i=i: tensor(a)[i], xs)
        carry, y = f(carry, x)
        ys.append(y)
    if reverse:
        ys.reverse()
    if not ys or ys[0] is None:
        return carry, None
    return carry, _tf.nest.map_structure(lambda *parts: _tf.stack(parts), *ys)


def map(f, xs):  # noqa: A001 - Keras's name
    """``f`` applied to each slice of ``xs`` along its leading axis, the results stacked."""
    return _tf.map_fn(f, xs) if _is_tensor(xs) else _tf.map_fn(f, _tf.nest.map_structure(tensor, xs))


def vectorized_map(function, elements):
    """``function`` applied to each slice of ``elements`` along the leading axis, vectorised."""
    return _tf.vectorized_map(function, elements)


def _core_dims(signature, count):
    """``"(m,n),(n)->(m)"`` -> the core rank of each of ``count`` inputs (all 0 without a signature)."""
    if signature is None:
        return [0] * count
    inputs, arrow, _ = signature.replace(" ", "").partition("->")
    groups = re.findall(r"\(([^)]*)\)", inputs)
    if not arrow or len(groups) != count:
        raise InvalidArgumentError(f"keras.ops.vectorize: signature {signature!r} must describe {count} "
                                   "inputs and an output, e.g. '(m,n),(n)->(m)'.")
    return [len([d for d in g.split(",") if d]) for g in groups]


def vectorize(pyfunc, *, excluded=None, signature=None):
    """``pyfunc`` lifted to run over the leading (broadcast) axes of its tensor arguments, as NumPy's
    ``vectorize``: with a ``signature`` each argument keeps its core (trailing) axes; arguments whose
    positions are in ``excluded`` are passed unchanged. (Keras 3.15 supports this on JAX, not on TF.)"""
    excluded = set(excluded or ())

    def run(*args, **kwargs):
        mapped = [i for i in range(len(args)) if i not in excluded]
        values = [tensor(args[i]) for i in mapped]
        cores = _core_dims(signature, len(values))
        loops = [tuple(v.shape[:len(v.shape) - c]) for v, c in zip(values, cores)]
        loop = tuple(np.broadcast_shapes(*loops))
        flat = [_tf.reshape(_tf.broadcast_to(v, loop + tuple(v.shape[len(v.shape) - c:])),
                            (-1, *v.shape[len(v.shape) - c:])) for v, c in zip(values, cores)]

        def one(items):
            call_args = list(args)
            for i, item in zip(mapped, items):
                call_args[i] = item
            return pyfunc(*call_args, **kwargs)

        out = _tf.vectorized_map(one, tuple(flat))
        return _tf.nest.map_structure(lambda o: _tf.reshape(o, loop + tuple(o.shape[1:])), out)

    run.__name__ = getattr(pyfunc, "__name__", "vectorized")
    run.__doc__ = pyfunc.__doc__
    return run


def switch(index, branches, *operands):
    """``branches[index](*operands)`` (the index clamped to the branches)."""
    index = _tf.clip_by_value(tensor(index, INT32), 0, len(branches) - 1)
    return _tf.switch_case(index, [lambda b=b: b(*operands) for b in branches])


def associative_scan(f, elems, reverse=False, axis=0):
    """The inclusive scan of ``elems`` along ``axis`` by the associative binary function ``f``."""
    items = unstack(elems, axis=axis)
    if reverse:
        items = items[::-1]
    out = [items[0]]
    for item in items[1:]:
        out.append(f(out[-1], item))
    if reverse:
        out = out[::-1]
    return _tf.stack(out, axis=axis)


def unstack(x, num=None, axis=0):
    """``x`` split along ``axis`` into a list of its slices."""
    return list(_tf.unstack(tensor(x), num=num, axis=axis))


def jvp(fun, primals, tangents, has_aux=False):
    """Forward-mode derivative: ``(fun(*primals), J(fun)(primals) @ tangents)`` (and ``aux`` when
    ``fun`` returns ``(output, aux)`` and ``has_aux``), with a `ForwardAccumulator`."""
    if len(primals) != len(tangents):
        raise InvalidArgumentError(f"keras.ops.jvp needs one tangent per primal; received {len(primals)} "
                                   f"primals and {len(tangents)} tangents.")
    primals = [tensor(p) for p in primals]
    tangents = [tensor(t, dtype_of(p)) for t, p in zip(tangents, primals)]
    with _tf.autodiff.ForwardAccumulator(primals, tangents) as accumulator:
        out = fun(*primals)
    out, aux = out if has_aux else (out, None)
    derivative = accumulator.jvp(out, unconnected_gradients="zero")
    return (out, derivative, aux) if has_aux else (out, derivative)


def custom_gradient(f):
    """Decorator: ``f`` returns ``(value, grad_fn)``; gradients use ``grad_fn`` (``tf.custom_gradient``)."""
    return _tf.custom_gradient(f)


_SLICE = Op("slice", lambda x, *starts, shape: jax.lax.dynamic_slice(x, starts, shape), static=("shape",))
_SLICE_UPDATE = Op("slice_update",
                   lambda x, updates, *starts: jax.lax.dynamic_update_slice(x, updates, starts))


def _starts(start_indices, rank):
    starts = [tensor(s, INT32) for s in (start_indices if isinstance(start_indices, (list, tuple))
                                         else _tf.unstack(tensor(start_indices, INT32)))]
    if len(starts) != rank:
        raise InvalidArgumentError(
            f"keras.ops.slice/slice_update need one start index per dimension of the input (rank {rank}); "
            f"received {len(starts)}. Pass start_indices of length {rank}.")
    return starts


def slice(inputs, start_indices, shape):  # noqa: A001 - Keras's name
    """The block of ``inputs`` of size ``shape`` starting at ``start_indices``."""
    x = tensor(inputs)
    return call(_SLICE, [x, *_starts(start_indices, len(x.shape))], {"shape": hashable(shape)})


def slice_update(inputs, start_indices, updates):
    """``inputs`` with the block starting at ``start_indices`` replaced by ``updates``."""
    x = tensor(inputs)
    return call(_SLICE_UPDATE, [x, tensor(updates, dtype_of(x)), *_starts(start_indices, len(x.shape))], {})


_SCATTER = Op("scatter", lambda indices, values, shape: jnp.zeros(shape, values.dtype).at[
    tuple(jnp.moveaxis(indices, -1, 0))].add(values), static=("shape",))
_SCATTER_UPDATE = Op("scatter_update", lambda x, indices, updates, reduction: getattr(
    x.at[tuple(jnp.moveaxis(indices, -1, 0))], reduction)(updates), static=("reduction",))
_REDUCTIONS = {None: "set", "add": "add", "max": "max", "min": "min", "mul": "multiply"}


def scatter(indices, values, shape):
    """A zero tensor of ``shape`` with ``values`` added at ``indices`` (each row one index tuple)."""
    return call(_SCATTER, [tensor(indices, INT32), tensor(values)], {"shape": tuple(hashable(shape))})


def scatter_update(inputs, indices, updates, reduction=None):
    """``inputs`` with ``updates`` written (or, with ``reduction``, combined) at ``indices``."""
    if reduction not in _REDUCTIONS:
        raise InvalidArgumentError(f"keras.ops.scatter_update: reduction must be one of {list(_REDUCTIONS)}; "
                                   f"received {reduction!r}.")
    x = tensor(inputs)
    return call(_SCATTER_UPDATE, [x, tensor(indices, INT32), tensor(updates, dtype_of(x))],
                {"reduction": _REDUCTIONS[reduction]})


# -- keras.ops.math ----------------------------------------------------------------------------

def _segment(name, reducer):
    def run(data, segment_ids, num_segments=None, sorted=False):  # noqa: A002 - Keras's name
        data, ids = tensor(data), tensor(segment_ids, INT32)
        if num_segments is None:
            values = np.asarray(ids._value)
            num_segments = int(values.max(initial=-1)) + 1
        return reducer(data, ids, hashable(num_segments))

    run.__name__ = name
    run.__doc__ = (f"Keras's ``{name}``: each segment's {name.split('_')[1]} of ``data`` rows sharing a "
                   "segment id (ids need not be sorted; ``num_segments`` defaults to ``max(id) + 1``).")
    return run


segment_sum = _segment("segment_sum", _tf.math.unsorted_segment_sum)
segment_max = _segment("segment_max", _tf.math.unsorted_segment_max)
segment_min = _segment("segment_min", _tf.math.unsorted_segment_min)
segment_prod = _segment("segment_prod", _tf.math.unsorted_segment_prod)


def top_k(x, k, sorted=True):  # noqa: A002 - Keras's name
    """The ``k`` largest values along the last axis of ``x`` and their indices (int32)."""
    values, indices = _tf.math.top_k(tensor(x), k=hashable(k), sorted=sorted)
    return values, indices


def in_top_k(targets, predictions, k):
    """Whether each target class is among the ``k`` highest ``predictions`` of its row."""
    return _tf.math.in_top_k(tensor(targets, INT32), tensor(predictions, np.dtype("float32")), hashable(k))


_FLOAT_MATH = {
    "erf": jax.scipy.special.erf, "erfc": jax.scipy.special.erfc, "erfinv": jax.scipy.special.erfinv,
    "rsqrt": _gradient_kernels.rsqrt,
}
_EXTRACT = Op("extract_sequences", lambda x, length, stride: jnp.stack(
    [x[..., i:i + length] for i in range(0, x.shape[-1] - length + 1, stride)], axis=-2),
    static=("length", "stride"))


def extract_sequences(x, sequence_length, sequence_stride):
    """Frames of ``sequence_length`` samples every ``sequence_stride`` along the last axis of ``x``."""
    params = {"length": hashable(sequence_length), "stride": hashable(sequence_stride)}
    return call(_EXTRACT, [tensor(x)], params)


def _fft_pair(name, fn):
    pure = Op(name, lambda real, imag: (lambda z: (jnp.real(z), jnp.imag(z)))(fn(real + 1j * imag)))

    def run(x):
        real, imag = prepare(list(x), "float")
        return call(pure, [real, imag], {})

    run.__name__ = name
    run.__doc__ = f"Keras's ``{name}``: ``x`` is a ``(real, imag)`` pair; returns the transform as a pair."
    return run


fft = _fft_pair("fft", jnp.fft.fft)
fft2 = _fft_pair("fft2", jnp.fft.fft2)
ifft2 = _fft_pair("ifft2", jnp.fft.ifft2)
_RFFT = Op("rfft", lambda x, n: (lambda z: (jnp.real(z), jnp.imag(z)))(jnp.fft.rfft(x, n)), static=("n",))
_IRFFT = Op("irfft", lambda real, imag, n: jnp.fft.irfft(real + 1j * imag, n), static=("n",))


def rfft(x, fft_length=None):
    """The real-input FFT along the last axis; a ``(real, imag)`` pair."""
    return call(_RFFT, prepare([x], "float"), {"n": hashable(fft_length)})


def irfft(x, fft_length=None):
    """The inverse of `rfft`: ``x`` is a ``(real, imag)`` pair; a real tensor."""
    return call(_IRFFT, prepare(list(x), "float"), {"n": hashable(fft_length)})


def _stft_window(window, sequence_length, fft_length, dtype):
    """Keras's STFT window: ``"hann"``/``"hamming"`` (periodic) or given values, zero-padded on both
    sides to ``fft_length``; None for no window."""
    if window is None:
        return None
    if isinstance(window, str):
        if window not in ("hann", "hamming"):
            raise InvalidArgumentError(f"keras.ops.stft/istft: window must be 'hann', 'hamming', None or an "
                                       f"array of length sequence_length; received {window!r}.")
        make = _tf.signal.hann_window if window == "hann" else _tf.signal.hamming_window
        values = make(sequence_length, periodic=True, dtype=_tf.as_dtype(dtype))
    else:
        values = tensor(window, dtype)
    if tuple(values.shape) != (sequence_length,):
        raise InvalidArgumentError(f"keras.ops.stft/istft: the window must have shape ({sequence_length},) "
                                   f"(sequence_length); received shape {tuple(values.shape)}.")
    left = (fft_length - sequence_length) // 2
    return _tf.pad(values, [[left, fft_length - sequence_length - left]])


def stft(x, sequence_length, sequence_stride, fft_length, window="hann", center=True):
    """Short-time Fourier transform along the last axis of float ``x``: ``(real, imag)`` of shape
    ``(..., frames, fft_length // 2 + 1)``; ``center`` reflect-pads ``x`` by ``fft_length // 2`` first."""
    x = tensor(x)
    if dtype_of(x) not in (np.dtype("float32"), np.dtype("float64")):
        raise InvalidArgumentTypeError(f"keras.ops.stft expects float32 or float64 input; received "
                                       f"{dtype_of(x).name}. Cast it with ops.cast(x, 'float32').")
    if fft_length < sequence_length:
        raise InvalidArgumentError(f"keras.ops.stft: fft_length ({fft_length}) must be at least "
                                   f"sequence_length ({sequence_length}).")
    if center:
        x = _tf.pad(x, [[0, 0]] * (len(x.shape) - 1) + [[fft_length // 2] * 2], mode="REFLECT")
    values = _stft_window(window, sequence_length, fft_length, dtype_of(x))
    out = _tf.signal.stft(x, fft_length, sequence_stride, fft_length=fft_length,
                          window_fn=None if values is None else (lambda frame_length, dtype: values))
    return _tf.math.real(out), _tf.math.imag(out)


def istft(x, sequence_length, sequence_stride, fft_length, length=None, window="hann", center=True):
    """The inverse of `stft`: ``x`` is a ``(real, imag)`` pair; a float signal (of ``length`` if given)."""
    real, imag = prepare(list(x), "float")
    frames = real.shape[-2]
    values = _stft_window(window, sequence_length, fft_length, dtype_of(real))
    window_fn = None if values is None else _tf.signal.inverse_stft_window_fn(
        sequence_stride, lambda frame_length, dtype: values)
    signal = _tf.signal.inverse_stft(_tf.complex(real, imag), fft_length, sequence_stride,
                                     fft_length=fft_length, window_fn=window_fn)
    start = fft_length // 2 if center else 0
    end = (start + length if length is not None else
           signal.shape[-1] - fft_length // 2 if center else fft_length + sequence_stride * (frames - 1))
    return signal[..., start:end]


OPS = {name: define(name, fn, "x", "float") for name, fn in _FLOAT_MATH.items()}
OPS["logdet"] = define("logdet", lambda x: jnp.linalg.slogdet(x)[1], "x", "float")
