"""The FFT family of `companion.signal`: complex ``fft``/``ifft`` (1-3 innermost dimensions), real
``rfft``/``irfft`` with TF's ``fft_length`` (inputs cropped or zero-padded to it), and the shifts.
Each is one op over ``jnp.fft`` (differentiable; runs inside `function`)."""

import jax.numpy as jnp
import numpy as np

from companion._core._convert import as_input
from companion._core._errors import InvalidArgumentError
from companion._core._op import op
from companion._ops._static import static_ints

_COMPLEX_OF = {"float32": "complex64", "float64": "complex128"}
_REAL_OF = {"complex64": "float32", "complex128": "float64"}


@op("fft", static=("rank", "inverse"))
def _fft(x, rank, inverse):
    axes = tuple(range(-rank, 0))
    return (jnp.fft.ifftn if inverse else jnp.fft.fftn)(x, axes=axes).astype(x.dtype)


@op("rfft", static=("lengths", "dtype"))
def _rfft(x, lengths, dtype):
    return jnp.fft.rfftn(x, s=lengths, axes=tuple(range(-len(lengths), 0))).astype(dtype)


@op("irfft", static=("lengths", "dtype"))
def _irfft(x, lengths, dtype):
    rank = len(lengths)
    kept = lengths[:-1] + (lengths[-1] // 2 + 1,)
    # TF crops (or zero-pads) the input's inner dimensions to the lengths the transform reads
    for axis, size in zip(range(-rank, 0), kept):
        have = x.shape[axis]
        if have > size:
            x = jnp.take(x, jnp.arange(size), axis=axis)
        elif have < size:
            pad = [(0, 0)] * x.ndim
            pad[axis] = (0, size - have)
            x = jnp.pad(x, pad)
    return jnp.fft.irfftn(x, s=lengths, axes=tuple(range(-rank, 0))).astype(dtype)


def _complex_input(value, what, rank):
    x = as_input(value)
    if x.dtype.name not in _REAL_OF:
        raise InvalidArgumentError(f"{what} needs a complex64 or complex128 tensor (TF's rule; cast a real "
                                   f"one with companion.cast(x, companion.complex64)). Received dtype "
                                   f"{x.dtype.name}")
    if x.ndim < rank:
        raise ValueError(f"{what} needs a tensor of rank >= {rank}. Received shape {x.shape.as_list()}")
    return x


def _real_input(value, what, rank):
    x = as_input(value)
    if x.dtype.name not in _COMPLEX_OF:
        raise InvalidArgumentError(f"{what} needs a float32 or float64 tensor. Received dtype {x.dtype.name}")
    if x.ndim < rank:
        raise ValueError(f"{what} needs a tensor of rank >= {rank}. Received shape {x.shape.as_list()}")
    return x


def _lengths(fft_length, default, rank, what):
    if fft_length is None:
        return tuple(default)
    lengths = static_ints(fft_length, f"{what}: fft_length")
    if len(lengths) != rank or any(n < 0 for n in lengths):
        raise ValueError(f"{what}: fft_length must hold {rank} non-negative sizes. Received: {fft_length!r}")
    return lengths


def _complex_transform(rank, inverse):
    name = ("ifft" if inverse else "fft") + ("" if rank == 1 else f"{rank}d")

    def transform(input, name=None):  # noqa: A002 - TensorFlow's argument name
        return _fft(_complex_input(input, name_, rank), rank=rank, inverse=inverse)

    name_ = name
    transform.__name__ = transform.__qualname__ = name
    transform.__doc__ = (f"The {'inverse ' if inverse else ''}discrete Fourier transform over the "
                         f"{'innermost dimension' if rank == 1 else f'{rank} innermost dimensions'} of a "
                         "complex tensor.")
    return transform


def _real_transform(rank):
    name = "rfft" + ("" if rank == 1 else f"{rank}d")

    def transform(input_tensor, fft_length=None, name=None):
        x = _real_input(input_tensor, name_, rank)
        lengths = _lengths(fft_length, x.shape.as_list()[-rank:], rank, name_)
        return _rfft(x, lengths=lengths, dtype=_COMPLEX_OF[x.dtype.name])

    name_ = name
    transform.__name__ = transform.__qualname__ = name
    transform.__doc__ = (f"The discrete Fourier transform of a real tensor over its {rank} innermost "
                         "dimension(s): only the non-negative frequencies of the last one "
                         "(``fft_length // 2 + 1`` of them); the input is cropped or zero-padded to "
                         "``fft_length``.")
    return transform


def _inverse_real_transform(rank):
    name = "irfft" + ("" if rank == 1 else f"{rank}d")

    def transform(input_tensor, fft_length=None, name=None):
        x = _complex_input(input_tensor, name_, rank)
        shape = x.shape.as_list()[-rank:]
        default = shape[:-1] + [2 * (shape[-1] - 1)]
        lengths = _lengths(fft_length, default, rank, name_)
        return _irfft(x, lengths=lengths, dtype=_REAL_OF[x.dtype.name])

    name_ = name
    transform.__name__ = transform.__qualname__ = name
    transform.__doc__ = (f"The inverse of `{name[1:]}`: a real signal of ``fft_length`` samples (by default "
                         "``2 * (inner - 1)``) from its non-negative frequencies.")
    return transform


fft, ifft = _complex_transform(1, False), _complex_transform(1, True)
fft2d, ifft2d = _complex_transform(2, False), _complex_transform(2, True)
fft3d, ifft3d = _complex_transform(3, False), _complex_transform(3, True)
rfft, rfft2d, rfft3d = _real_transform(1), _real_transform(2), _real_transform(3)
irfft, irfft2d, irfft3d = _inverse_real_transform(1), _inverse_real_transform(2), _inverse_real_transform(3)


@op("fftshift", static=("axes", "inverse"))
def _shift(x, axes, inverse):
    return (jnp.fft.ifftshift if inverse else jnp.fft.fftshift)(x, axes=axes)


def _shift_axes(x, axes):
    if axes is None:
        return tuple(range(x.ndim))
    return tuple(int(a) for a in np.atleast_1d(static_ints(axes, "fftshift: axes")))


def fftshift(x, axes=None, name=None):
    """Moves the zero frequency to the middle of ``axes`` (all by default), as NumPy's fftshift."""
    x = as_input(x)
    return _shift(x, axes=_shift_axes(x, axes), inverse=False)


def ifftshift(x, axes=None, name=None):
    """The inverse of `fftshift`."""
    x = as_input(x)
    return _shift(x, axes=_shift_axes(x, axes), inverse=True)
