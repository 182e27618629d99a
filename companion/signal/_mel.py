"""Mel-scale helpers of `companion.signal`: `linear_to_mel_weight_matrix` (HTK's mel scale,
triangular filters peaking at 1) and `mfccs_from_log_mel_spectrograms`."""

import numpy as np

from companion._core import _dtypes
from companion._core._convert import as_input, constant
from companion._ops._math import rsqrt
from companion.signal._dct import dct

_BREAK_HERTZ, _HIGH_Q = 700.0, 1127.0


def _hertz_to_mel(hertz):
    return _HIGH_Q * np.log(1.0 + hertz / _BREAK_HERTZ)


def linear_to_mel_weight_matrix(num_mel_bins=20, num_spectrogram_bins=129, sample_rate=8000,
                                lower_edge_hertz=125.0, upper_edge_hertz=3800.0, dtype=_dtypes.float32,
                                name=None):
    """A ``[num_spectrogram_bins, num_mel_bins]`` matrix that turns linear-frequency spectrogram bins
    (``0 .. sample_rate / 2``) into mel bands between the two edges (``spectrogram @ matrix``)."""
    dtype = _dtypes.as_dtype(dtype)
    if num_mel_bins <= 0 or num_spectrogram_bins <= 0 or sample_rate <= 0:
        raise ValueError(f"linear_to_mel_weight_matrix: num_mel_bins, num_spectrogram_bins and sample_rate "
                         f"must be positive. Received {num_mel_bins}, {num_spectrogram_bins}, {sample_rate}.")
    if lower_edge_hertz < 0.0 or lower_edge_hertz >= upper_edge_hertz:
        raise ValueError(f"linear_to_mel_weight_matrix: need 0 <= lower_edge_hertz < upper_edge_hertz. "
                         f"Received {lower_edge_hertz} and {upper_edge_hertz}.")
    if upper_edge_hertz > sample_rate / 2:
        raise ValueError(f"linear_to_mel_weight_matrix: upper_edge_hertz ({upper_edge_hertz}) exceeds the "
                         f"Nyquist frequency sample_rate / 2 ({sample_rate / 2}).")
    if not dtype.is_floating:
        raise ValueError(f"linear_to_mel_weight_matrix: dtype must be a floating point type. Found {dtype}")
    real = dtype.as_numpy_dtype
    nyquist = real(sample_rate) / real(2.0)
    linear = np.linspace(real(0.0), nyquist, num_spectrogram_bins, dtype=real)[1:]
    bins_mel = _hertz_to_mel(linear).astype(real)[:, None]
    edges = np.linspace(_hertz_to_mel(real(lower_edge_hertz)), _hertz_to_mel(real(upper_edge_hertz)),
                        num_mel_bins + 2, dtype=real)
    lower, center, upper = edges[:-2][None], edges[1:-1][None], edges[2:][None]
    lower_slopes = (bins_mel - lower) / (center - lower)
    upper_slopes = (upper - bins_mel) / (upper - center)
    weights = np.maximum(real(0.0), np.minimum(lower_slopes, upper_slopes)).astype(real)
    return constant(np.pad(weights, [[1, 0], [0, 0]]), dtype=dtype)


def mfccs_from_log_mel_spectrograms(log_mel_spectrograms, name=None):
    """MFCCs: the type-II DCT of log mel spectrograms scaled by ``1 / sqrt(2 * num_mel_bins)`` (HTK's
    convention, as TF)."""
    x = as_input(log_mel_spectrograms)
    bins = x.shape[-1] if x.ndim else 0
    if not bins:
        raise ValueError(f"mfccs_from_log_mel_spectrograms: num_mel_bins must be positive. Got: {x!s}")
    return dct(x, type=2) * rsqrt(constant(bins * 2.0, dtype=x.dtype))
