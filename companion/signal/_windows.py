"""Window functions of `companion.signal`: Hann, Hamming (TF's raised cosine: ``periodic`` changes
only even lengths) and Kaiser."""

import numpy as np

from companion._core import _dtypes
from companion._core._convert import constant
from companion._ops._static import static_int
from companion.math import bessel_i0e, exp


def _length_and_dtype(window_length, dtype, what):
    length = static_int(window_length, f"{what}: window_length")
    dtype = _dtypes.as_dtype(dtype)
    if not dtype.is_floating:
        raise ValueError(f"{what}: dtype must be a floating point type. Found {dtype}")
    if length < 0:
        raise ValueError(f"{what}: window_length must be >= 0. Received {length}")
    return length, dtype


def _raised_cosine(window_length, periodic, dtype, a, b, what):
    length, dtype = _length_and_dtype(window_length, dtype, what)
    if length == 1:
        return constant(np.ones(1), dtype=dtype)
    # TF: n = length - 1, plus one for periodic windows of even length
    n = length + int(bool(periodic)) * (1 - length % 2) - 1
    numpy_dtype = dtype.as_numpy_dtype
    count = np.arange(length, dtype=numpy_dtype)
    angle = numpy_dtype(2 * np.pi) * count / numpy_dtype(n)
    return constant((numpy_dtype(a) - numpy_dtype(b) * np.cos(angle)).astype(numpy_dtype), dtype=dtype)


def hann_window(window_length, periodic=True, dtype=_dtypes.float32, name=None):
    """The Hann window ``0.5 - 0.5 cos(2 pi k / n)`` of ``window_length`` samples.

    Example:
        >>> import companion as tf
        >>> print(tf.signal.hann_window(4))
        companion.Tensor([0.  0.5 1.  0.5], shape=(4,), dtype=float32)
    """
    return _raised_cosine(window_length, periodic, dtype, 0.5, 0.5, "hann_window")


def hamming_window(window_length, periodic=True, dtype=_dtypes.float32, name=None):
    """The Hamming window ``0.54 - 0.46 cos(2 pi k / n)`` of ``window_length`` samples."""
    return _raised_cosine(window_length, periodic, dtype, 0.54, 0.46, "hamming_window")


def kaiser_window(window_length, beta=12.0, dtype=_dtypes.float32, name=None):
    """The Kaiser window of ``window_length`` samples with shape parameter ``beta``."""
    length, dtype = _length_and_dtype(window_length, dtype, "kaiser_window")
    if length == 1:
        return constant(np.ones(1), dtype=dtype)
    half = (length - 1) / 2.0
    arg = np.arange(-half, half + 0.1, dtype=np.float32).astype(dtype.as_numpy_dtype)
    beta_value = constant(beta, dtype=dtype)
    num = beta_value * constant(np.sqrt(np.maximum(0.0, 1.0 - np.square(arg / half))).astype(arg.dtype))
    return exp(num - beta_value) * (bessel_i0e(num) / bessel_i0e(beta_value))
