"""The discrete cosine transforms of `companion.signal` (types I-IV, ``norm="ortho"``), computed as
TF computes them: through a zero-padded real FFT of twice the length."""

import numpy as np

from companion._core._convert import as_input, constant
from companion._ops._array import concat, pad
from companion._ops._conversions import complex as make_complex
from companion._ops._math import real
from companion.signal._fft import irfft, rfft


def _check(x, type, n, axis, norm):  # noqa: A002 - TensorFlow's argument name
    if type not in (1, 2, 3, 4):
        raise ValueError(f"dct: type must be 1, 2, 3 or 4. Received: type={type!r}")
    if axis != -1:
        raise NotImplementedError(f"dct: only axis=-1 is supported (as in TF). Received: axis={axis!r}")
    if n is not None and n < 1:
        raise ValueError(f"dct: n must be None or a positive integer. Received: n={n!r}")
    if norm not in (None, "ortho"):
        raise ValueError(f"dct: norm must be None or 'ortho'. Received: norm={norm!r}")
    if norm == "ortho" and type == 1:
        raise ValueError("dct: normalization is not supported for the type-I DCT (as in TF).")
    if not x.dtype.is_floating:
        raise ValueError(f"dct needs a float32 or float64 tensor. Received dtype {x.dtype.name}")


def _dct(x, type, n, norm):  # noqa: A002
    length = x.shape[-1]
    if n is not None:
        x = x[..., :n] if n <= length else pad(x, [[0, 0]] * (x.ndim - 1) + [[0, n - length]])
    size = x.shape[-1]
    numpy_dtype = x.dtype.as_numpy_dtype
    if type == 1:
        return real(rfft(concat([x, x[..., -2:0:-1]], axis=-1)))
    if type == 2:
        phase = -np.arange(size, dtype=numpy_dtype) * numpy_dtype(np.pi * 0.5) / numpy_dtype(size)
        scale = constant((2.0 * np.exp(1j * phase)).astype(_complex(numpy_dtype)))
        result = real(rfft(x, fft_length=[2 * size])[..., :size] * scale)
        if norm == "ortho":
            first = numpy_dtype(0.5) / np.sqrt(numpy_dtype(size))
            weights = np.full(size, first * numpy_dtype(np.sqrt(2.0)), numpy_dtype)
            weights[0] = first
            result = result * constant(weights)
        return result
    if type == 3:
        if norm == "ortho":
            first = np.sqrt(numpy_dtype(size))
            weights = np.full(size, first * numpy_dtype(np.sqrt(0.5)), numpy_dtype)
            weights[0] = first
            x = x * constant(weights)
        else:
            x = x * constant(numpy_dtype(size))
        phase = np.arange(size, dtype=numpy_dtype) * numpy_dtype(np.pi * 0.5) / numpy_dtype(size)
        scale = constant((2.0 * np.exp(1j * phase)).astype(_complex(numpy_dtype)))
        spectrum = scale * make_complex(x, x * 0)
        return real(irfft(spectrum, fft_length=[2 * size]))[..., :size]
    result = _dct(x, 2, 2 * size, None)[..., 1::2]
    if norm == "ortho":
        result = result * constant(numpy_dtype(np.sqrt(0.5)) / np.sqrt(numpy_dtype(size)))
    return result


def _complex(numpy_dtype):
    return np.complex64 if numpy_dtype == np.float32 else np.complex128


def dct(input, type=2, n=None, axis=-1, norm=None, name=None):  # noqa: A002
    """The type-``type`` DCT over the last axis (``n`` crops or zero-pads it first), with
    ``norm="ortho"`` for the orthonormal scaling; scipy.fftpack.dct's conventions.

    Example:
        >>> import companion as tf
        >>> print(tf.abs(tf.round(tf.signal.dct([1.0, 1.0, 1.0, 1.0]) * 1000) / 1000))
        companion.Tensor([8. 0. 0. 0.], shape=(4,), dtype=float32)
    """
    x = as_input(input)
    _check(x, type, n, axis, norm)
    return _dct(x, type, n, norm)


def idct(input, type=2, n=None, axis=-1, norm=None, name=None):  # noqa: A002
    """The inverse of `dct` (type III for II, II for III): ``idct(dct(x, norm="ortho"),
    norm="ortho") == x``; without normalization, scale by ``0.5 / n``."""
    x = as_input(input)
    _check(x, type, n, axis, norm)
    return _dct(x, {1: 1, 2: 3, 3: 2, 4: 4}[type], n, norm)
