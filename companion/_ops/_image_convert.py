"""`convert_image_dtype`: change an image's dtype, rescaling values (ints span their range, floats [0, 1])."""

import jax.numpy as jnp
import numpy as np

from companion._core import _dtypes
from companion._core._convert import as_input
from companion._core._op import op


@op("convert_image_dtype", static=("dtype", "saturate"))
def _convert(image, dtype, saturate):
    source, target = np.dtype(image.dtype), np.dtype(dtype)
    if source.kind in "iu" and target.kind in "iu":
        return _int_to_int(image, source, target, saturate)
    if source.kind == "f" and target.kind == "f":
        return image.astype(target)
    if source.kind in "iu":  # to float: cast, then scale by 1 / max
        return image.astype(target) * jnp.asarray(1.0 / np.iinfo(source).max, dtype=target)
    scaled = image * jnp.asarray(np.iinfo(target).max + 0.5, dtype=image.dtype)  # from float: scale, cast
    return _saturate_cast(scaled, target) if saturate else scaled.astype(target)


def convert_image_dtype(image, dtype, saturate=False, name=None):
    """Converts ``image`` to ``dtype``, rescaling as TensorFlow does.

    Floating-point images hold values in ``[0, 1]``; integer images span ``[0, MAX]`` of
    their dtype. So uint8 → float32 divides by 255, float32 → uint8 multiplies by 255.5
    and truncates, and uint8 → int32 multiplies by 2**23. Float → float is a plain cast.

    Args:
        image: an image tensor of any shape.
        dtype: the target dtype.
        saturate: clip to the target's range before casting (for out-of-range floats).

    Example:
        >>> import companion as tf
        >>> print(tf.image.convert_image_dtype(tf.constant([0, 255], tf.uint8), tf.float32))
        companion.Tensor([0. 1.], shape=(2,), dtype=float32)
        >>> print(tf.image.convert_image_dtype(tf.constant([0.0, 0.5, 1.0]), tf.uint8))
        companion.Tensor([  0 127 255], shape=(3,), dtype=uint8)
    """
    image = as_input(image)
    target = _dtypes.as_dtype(dtype)
    for kind in (image.dtype, target):
        if not (kind.is_integer or kind.is_floating):
            raise TypeError(f"convert_image_dtype works on integer and floating images. Received "
                            f"{image.dtype.name} → {target.name}.")
    if target == image.dtype:
        return image.value() if image._is_variable else image
    return _convert(image, dtype=target._np, saturate=bool(saturate))


def _int_to_int(image, source, target, saturate):
    scale_in, scale_out = int(np.iinfo(source).max), int(np.iinfo(target).max)
    if scale_in > scale_out:  # scale down first, then cast
        scaled = image // jnp.asarray((scale_in + 1) // (scale_out + 1), dtype=source)
        return _saturate_cast(scaled, target) if saturate else scaled.astype(target)
    cast = _saturate_cast(image, target) if saturate else image.astype(target)
    return cast * jnp.asarray((scale_out + 1) // (scale_in + 1), dtype=target)


def _saturate_cast(x, target):
    info = np.iinfo(target)
    low = max(info.min, _lowest(x.dtype))
    high = min(info.max, _highest(x.dtype))
    return jnp.clip(x, jnp.asarray(low, x.dtype), jnp.asarray(high, x.dtype)).astype(target)


def _lowest(dtype):
    return np.iinfo(dtype).min if np.dtype(dtype).kind in "iu" else -np.inf


def _highest(dtype):
    return np.iinfo(dtype).max if np.dtype(dtype).kind in "iu" else np.inf
