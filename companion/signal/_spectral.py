"""Short-time Fourier transforms: `stft`, `inverse_stft` and `inverse_stft_window_fn` (TF's
framing, windowing and FFT lengths)."""

import numpy as np

from companion._core._convert import as_input
from companion._ops._array import pad, reshape, tile
from companion._ops._math import square
from companion._ops._reduce import reduce_sum
from companion._ops._select import where
from companion._ops._static import static_int
from companion.signal._fft import irfft, rfft
from companion.signal._framing import frame, overlap_and_add
from companion.signal._windows import hann_window


def _power_of_two(length):
    return int(2 ** np.ceil(np.log(length) / np.log(2.0)))


def stft(signals, frame_length, frame_step, fft_length=None, window_fn=hann_window, pad_end=False,
         name=None):
    """The STFT of real ``[..., samples]`` signals: windows of ``frame_length`` every ``frame_step``
    samples, each multiplied by ``window_fn(frame_length)`` and transformed by an ``fft_length``-point
    real FFT (default: the power of two enclosing ``frame_length``). Returns ``[..., frames,
    fft_length // 2 + 1]`` complex values.

    Example:
        >>> import companion as tf
        >>> tf.signal.stft(tf.zeros([64]), frame_length=16, frame_step=8).shape
        TensorShape([7, 9])
    """
    signals = as_input(signals)
    if signals.ndim < 1:
        raise ValueError("stft needs signals of rank >= 1 ([..., samples]). Received a scalar.")
    length = static_int(frame_length, "stft: frame_length")
    size = _power_of_two(length) if fft_length is None else static_int(fft_length, "stft: fft_length")
    framed = frame(signals, length, frame_step, pad_end=pad_end)
    if window_fn is not None:
        framed = framed * window_fn(length, dtype=framed.dtype)
    return rfft(framed, [size])


def inverse_stft_window_fn(frame_step, forward_window_fn=hann_window, name=None):
    """A window for `inverse_stft` that undoes ``forward_window_fn``'s overlapping windows: the
    forward window divided by the sum of its overlapping squares."""
    step = static_int(frame_step, "inverse_stft_window_fn: frame_step")

    def window(frame_length, dtype):
        length = static_int(frame_length, "inverse_stft_window_fn: frame_length")
        forward = forward_window_fn(length, dtype=dtype)
        overlaps = -(-length // step)
        denominator = pad(square(forward), [[0, overlaps * step - length]])
        denominator = reduce_sum(reshape(denominator, [overlaps, step]), 0, keepdims=True)
        denominator = reshape(tile(denominator, [overlaps, 1]), [overlaps * step])[:length]
        return where(denominator == 0.0, forward * 0, forward / denominator)

    return window


def inverse_stft(stfts, frame_length, frame_step, fft_length=None, window_fn=hann_window, name=None):
    """Signals from their STFTs: inverse real FFTs cut or zero-padded to ``frame_length``, windowed by
    ``window_fn`` and overlap-added (use `inverse_stft_window_fn` for an exact inverse)."""
    stfts = as_input(stfts)
    if stfts.ndim < 2:
        raise ValueError(f"inverse_stft needs stfts of rank >= 2 ([..., frames, bins]). Received shape "
                         f"{stfts.shape.as_list()}")
    length = static_int(frame_length, "inverse_stft: frame_length")
    size = _power_of_two(length) if fft_length is None else static_int(fft_length, "inverse_stft: fft_length")
    frames = irfft(stfts, [size])
    have = frames.shape[-1]
    if have > length:
        frames = frames[..., :length]
    elif have < length:
        frames = pad(frames, [[0, 0]] * (frames.ndim - 1) + [[0, length - have]])
    if window_fn is not None:
        frames = frames * window_fn(length, dtype=frames.dtype)
    return overlap_and_add(frames, frame_step)
