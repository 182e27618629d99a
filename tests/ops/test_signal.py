"""companion.signal against NumPy's FFTs and SciPy's DCTs and windows."""

import jax
import jax.numpy as jnp
import numpy as np
import pytest
import scipy.fft
import scipy.signal

import companion as tf

RNG = np.random.default_rng(0)


def test_complex_and_real_ffts_match_numpy():
    x = (RNG.normal(size=(3, 4, 8)) + 1j * RNG.normal(size=(3, 4, 8))).astype(np.complex64)
    np.testing.assert_allclose(tf.signal.fft(x).numpy(), np.fft.fft(x), rtol=1e-4, atol=1e-4)
    np.testing.assert_allclose(tf.signal.ifft(x).numpy(), np.fft.ifft(x), rtol=1e-4, atol=1e-5)
    np.testing.assert_allclose(tf.signal.fft2d(x).numpy(), np.fft.fft2(x), rtol=1e-4, atol=1e-4)
    np.testing.assert_allclose(tf.signal.fft3d(x).numpy(), np.fft.fftn(x), rtol=1e-4, atol=1e-3)
    real = RNG.normal(size=(2, 6, 10)).astype(np.float32)
    np.testing.assert_allclose(tf.signal.rfft(real).numpy(), np.fft.rfft(real), rtol=1e-4, atol=1e-4)
    close = {"rtol": 1e-4, "atol": 1e-4}
    np.testing.assert_allclose(tf.signal.rfft(real, [6]).numpy(), np.fft.rfft(real[..., :6]), **close)
    np.testing.assert_allclose(tf.signal.rfft(real, [16]).numpy(), np.fft.rfft(real, 16), **close)
    np.testing.assert_allclose(tf.signal.rfft2d(real).numpy(), np.fft.rfft2(real), rtol=1e-4, atol=1e-4)
    np.testing.assert_allclose(tf.signal.irfft(tf.signal.rfft(real)).numpy(), real, atol=1e-5)
    np.testing.assert_allclose(tf.signal.irfft2d(tf.signal.rfft2d(real)).numpy(), real, atol=1e-5)
    np.testing.assert_array_equal(tf.signal.fftshift(real, axes=[1]).numpy(), np.fft.fftshift(real, axes=[1]))
    np.testing.assert_array_equal(tf.signal.ifftshift(real).numpy(), np.fft.ifftshift(real))
    with pytest.raises(tf.errors.InvalidArgumentError, match="complex64 or complex128"):
        tf.signal.fft(real)


def test_fft_gradients_match_jax():
    x = RNG.normal(size=(8,)).astype(np.float32)
    variable = tf.Variable(x)
    with tf.GradientTape() as tape:
        loss = tf.reduce_sum(tf.abs(tf.signal.rfft(variable)) ** 2 * np.arange(5, dtype=np.float32))
    expected = jax.grad(lambda v: jnp.sum(jnp.abs(jnp.fft.rfft(v)) ** 2 * jnp.arange(5.0)))(x)
    np.testing.assert_allclose(tape.gradient(loss, variable).numpy(), expected, rtol=1e-4, atol=1e-4)


def test_frame_and_overlap_and_add():
    x = np.arange(10, dtype=np.float32)
    frames = tf.signal.frame(x, 4, 3).numpy()
    np.testing.assert_array_equal(frames, [x[0:4], x[3:7], x[6:10]])
    padded = tf.signal.frame(x, 4, 3, pad_end=True, pad_value=-1).numpy()
    np.testing.assert_array_equal(padded[-1], [9, -1, -1, -1])
    assert padded.shape == (4, 4)
    batch = RNG.normal(size=(2, 3, 5)).astype(np.float32)
    along = tf.signal.frame(batch, 2, 1, axis=1).numpy()
    assert along.shape == (2, 2, 2, 5)
    np.testing.assert_array_equal(along[:, 1], batch[:, 1:3])
    chunks = RNG.normal(size=(2, 4, 5)).astype(np.float32)
    summed = tf.signal.overlap_and_add(chunks, 2).numpy()
    expected = np.zeros((2, 5 + 2 * 3), np.float32)
    for i in range(4):
        expected[:, 2 * i:2 * i + 5] += chunks[:, i]
    np.testing.assert_allclose(summed, expected, rtol=1e-6)


@pytest.mark.parametrize("length", [1, 4, 7, 16])
def test_windows_match_scipy(length):
    for periodic in (True, False):
        symmetric = not (periodic and length % 2 == 0)  # TF: periodic changes only even lengths
        for name, window in (("hann", tf.signal.hann_window), ("hamming", tf.signal.hamming_window)):
            expected = scipy.signal.get_window(name, length, fftbins=not symmetric)
            np.testing.assert_allclose(window(length, periodic).numpy(), expected, atol=1e-6)
    np.testing.assert_allclose(tf.signal.kaiser_window(length, beta=6.0).numpy(),
                               scipy.signal.windows.kaiser(length, 6.0), rtol=1e-4, atol=1e-6)


@pytest.mark.parametrize("kind", [1, 2, 3, 4])
def test_dct_types_match_scipy_and_idct_inverts(kind):
    x = RNG.normal(size=(3, 8)).astype(np.float64)
    np.testing.assert_allclose(tf.signal.dct(x, type=kind).numpy(), scipy.fft.dct(x, type=kind), rtol=1e-9,
                               atol=1e-9)
    if kind != 1:
        ortho = tf.signal.dct(x, type=kind, norm="ortho")
        np.testing.assert_allclose(ortho.numpy(), scipy.fft.dct(x, type=kind, norm="ortho"), atol=1e-9)
        np.testing.assert_allclose(tf.signal.idct(ortho, type=kind, norm="ortho").numpy(), x, atol=1e-9)
    np.testing.assert_allclose(tf.signal.dct(x, n=5).numpy(), scipy.fft.dct(x[:, :5]), atol=1e-9)


def test_stft_matches_a_framed_windowed_numpy_fft_and_inverts():
    signal = RNG.normal(size=(2, 100)).astype(np.float32)
    spectrum = tf.signal.stft(signal, frame_length=20, frame_step=10)
    assert spectrum.shape == (2, 9, 17) and spectrum.dtype == tf.complex64
    window = scipy.signal.get_window("hann", 20)
    frames = np.stack([signal[:, i * 10:i * 10 + 20] * window for i in range(9)], axis=1)
    np.testing.assert_allclose(spectrum.numpy(), np.fft.rfft(frames, 32), rtol=1e-4, atol=1e-4)
    rebuilt = tf.signal.inverse_stft(spectrum, 20, 10, window_fn=tf.signal.inverse_stft_window_fn(10))
    # the first and last half frames lack an overlapping partner: compare the middle
    np.testing.assert_allclose(rebuilt.numpy()[:, 10:90], signal[:, 10:90], atol=1e-4)


def test_mel_matrix_and_mfccs_follow_htk_definitions():
    matrix = tf.signal.linear_to_mel_weight_matrix(4, 9, 8000, 100.0, 3000.0).numpy()
    assert matrix.shape == (9, 4) and (matrix[0] == 0).all()
    mel = lambda hz: 1127.0 * np.log(1.0 + hz / 700.0)  # noqa: E731
    edges = np.linspace(mel(100.0), mel(3000.0), 6)
    bins = mel(np.linspace(0, 4000, 9)[1:])
    lower = (bins[:, None] - edges[None, :4]) / (edges[1:5] - edges[:4])
    upper = (edges[None, 2:] - bins[:, None]) / (edges[2:] - edges[1:5])
    np.testing.assert_allclose(matrix[1:], np.maximum(0, np.minimum(lower, upper)), atol=1e-5)
    logs = RNG.normal(size=(3, 6)).astype(np.float64)
    np.testing.assert_allclose(tf.signal.mfccs_from_log_mel_spectrograms(logs).numpy(),
                               scipy.fft.dct(logs, type=2) / np.sqrt(2 * 6), atol=1e-9)
