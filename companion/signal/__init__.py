"""``companion.signal``: TensorFlow's ``tf.signal`` (FFTs, framing, windows, STFTs, DCTs, mel scale).

Every function is built from ops JAX differentiates (``jnp.fft``, gathers, segment sums), so
they run inside `function` and tapes see through them.
"""

from companion.signal._dct import dct, idct
from companion.signal._fft import (
           fft,
           fft2d,
           fft3d,
           fftshift,
           ifft,
           ifft2d,
           ifft3d,
           ifftshift,
           irfft,
           irfft2d,
           irfft3d,
           rfft,
           rfft2d,
           rfft3d,
)
from companion.signal._framing import frame, overlap_and_add
from companion.signal._mel import linear_to_mel_weight_matrix, mfccs_from_log_mel_spectrograms
from companion.signal._spectral import inverse_stft, inverse_stft_window_fn, stft
from companion.signal._windows import hamming_window, hann_window, kaiser_window

__all__ = ["dct", "fft", "fft2d", "fft3d", "fftshift", "frame", "hamming_window", "hann_window", "idct",
           "ifft", "ifft2d", "ifft3d", "ifftshift", "inverse_stft", "inverse_stft_window_fn", "irfft",
           "irfft2d", "irfft3d", "kaiser_window", "linear_to_mel_weight_matrix",
           "mfccs_from_log_mel_spectrograms", "overlap_and_add", "rfft", "rfft2d", "rfft3d", "stft"]
