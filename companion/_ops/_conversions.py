"""Dtype conversions beyond `cast`: `complex` (from real and imaginary parts), `bitcast` (the same
bits seen as another dtype) and `saturate_cast` (clamped into the target's range first)."""

import jax
import numpy as np

from companion._core import _dtypes
from companion._core._convert import as_input, binary_inputs
from companion._core._errors import InvalidArgumentError
from companion._core._op import op
from companion._ops._math import cast, maximum, minimum

__all__ = ["bitcast", "complex", "saturate_cast"]


@op("complex")
def _complex(real, imag):
    return jax.lax.complex(real, imag)


def complex(real, imag, name=None):  # noqa: A001 - TensorFlow's name
    """``real + imag * 1j`` element-wise: float32 parts give complex64, float64 parts complex128.

    Example:
        >>> import companion as tf
        >>> tf.complex(1.0, 2.0).numpy()
        np.complex64(1+2j)
    """
    real, imag = as_input(real), as_input(imag)
    if real.dtype != imag.dtype or real.dtype.name not in ("float32", "float64"):
        raise TypeError(f"complex: `real` and `imag` must both be float32 or both float64. Received "
                        f"dtypes {real.dtype.name} and {imag.dtype.name}. Cast them first, e.g. "
                        "companion.cast(x, companion.float32).")
    real, imag = binary_inputs(real, imag, "complex")
    return _complex(real, imag)


@op("bitcast", static=("dtype",))
def _bitcast(x, dtype):
    return jax.lax.bitcast_convert_type(x, dtype)


_bitcast.differentiable = "Bitcast"  # TF registers no gradient for it: tape.gradient through it raises


def bitcast(input, type, name=None):  # noqa: A002 - TensorFlow's names
    """The bits of ``input`` read as dtype ``type``, without changing them.

    The same width keeps the shape; a narrower ``type`` adds a last axis of the width ratio
    (float32 -> uint8: ``[..., 4]``); a wider one removes the last axis, which must be that ratio.
    """
    x, target = as_input(input), _dtypes.as_dtype(type)
    have, want = np.dtype(x.dtype._np).itemsize, np.dtype(target._np).itemsize
    if want > have and (x.ndim == 0 or x.shape[-1] != want // have):
        raise InvalidArgumentError(
            f"bitcast: cannot bitcast {x.dtype.name} of shape {list(x.shape)} to {target.name}: the last "
            f"dimension must be {want // have} (the width ratio). Reshape it so.")
    return _bitcast(x, dtype=target._np)


def saturate_cast(value, dtype, name=None):
    """`cast` to ``dtype`` after clamping ``value`` into the range ``dtype`` can hold (no wrap-around:
    300.0 to uint8 gives 255, 70000 to int16 gives 32767)."""
    value, target = as_input(value), _dtypes.as_dtype(dtype)
    if value.dtype.is_complex and not target.is_complex:
        value = cast(value, value.dtype.real_dtype)
    low, high = _bounds(value.dtype, target)
    if low is not None:
        value = maximum(value, low)
    if high is not None:
        value = minimum(value, high)
    return cast(value, target)


def _bounds(source, target):
    """The clamp bounds in ``source``'s dtype (None where ``source`` cannot exceed ``target``);
    for a float source, the float nearest each int bound from inside (TF's choice)."""
    if target.is_bool or source.is_bool or not (target.is_integer or target.is_floating):
        return None, None
    src, dst = np.dtype(source._np), np.dtype(target._np)
    src_info = np.iinfo(src) if src.kind in "iu" else np.finfo(src)
    dst_info = np.iinfo(dst) if dst.kind in "iu" else np.finfo(dst)
    low = high = None
    if src_info.min < dst_info.min:
        low = _inside(src, dst_info.min, up=True)
    if src_info.max > dst_info.max:
        high = _inside(src, dst_info.max, up=False)
    return low, high


def _inside(src, bound, up):
    value = src.type(bound)
    if src.kind == "f" and (int(value) < bound if up else int(value) > bound):
        value = np.nextafter(value, src.type(np.inf if up else -np.inf))
    return value
