"""`resize` and `ResizeMethod`: TensorFlow 2's ``tf.image.resize`` on ``jax.image.resize``.

All methods sample at pixel centres (TensorFlow 2's ``half_pixel_centers``): output pixel
``i`` looks at input position ``(i + 0.5) * in_size / out_size - 0.5``.
"""

import enum

import jax
import numpy as np

from companion._core import _dtypes
from companion._core._op import op
from companion._ops._math import cast
from companion._ops._static import static_ints
from companion.image._checks import image_input, static_shape


class ResizeMethod(str, enum.Enum):
    """The interpolation methods of `resize` (their values are TensorFlow's strings)."""

    BILINEAR = "bilinear"
    NEAREST_NEIGHBOR = "nearest"
    BICUBIC = "bicubic"
    AREA = "area"
    LANCZOS3 = "lanczos3"
    LANCZOS5 = "lanczos5"


# TensorFlow's method → (jax.image.resize method, whether TensorFlow honours `antialias` for it)
_JAX_METHODS = {"bilinear": ("linear", True), "nearest": ("nearest", False), "bicubic": ("cubic", True),
                "area": ("area", False), "lanczos3": ("lanczos3", True), "lanczos5": ("lanczos5", True)}


@op("resize", static=("shape", "method", "antialias"))
def _resize(images, shape, method, antialias):
    return jax.image.resize(images, shape, method=method, antialias=antialias)


def resize(images, size, method=ResizeMethod.BILINEAR, preserve_aspect_ratio=False, antialias=False,
           name=None):
    """Resizes images to ``size`` = ``[new_height, new_width]``, as TensorFlow 2's ``tf.image.resize``.

    Args:
        images: ``[height, width, channels]`` or ``[batch, height, width, channels]``.
        size: the new ``[height, width]``.
        method: ``"bilinear"`` (default), ``"nearest"``, ``"bicubic"``, ``"area"``,
            ``"lanczos3"``, ``"lanczos5"`` or a `ResizeMethod`.
        preserve_aspect_ratio: fit inside ``size`` keeping the aspect ratio (the result
            may be smaller than ``size`` along one axis).
        antialias: when downsampling with bilinear/bicubic/lanczos, widen the filter so every
            input pixel contributes (TensorFlow's ``antialias=True``).

    Returns:
        float32 images of the new size; ``"nearest"`` keeps the input dtype.

    Example:
        >>> import companion as tf
        >>> image = tf.reshape(tf.constant([1.0, 2.0, 3.0, 4.0]), [2, 2, 1])
        >>> print(tf.image.resize(image, [3, 3])[..., 0])
        companion.Tensor(
        [[1.  1.5 2. ]
         [2.  2.5 3. ]
         [3.  3.5 4. ]], shape=(3, 3), dtype=float32)
    """
    images = image_input(images, "resize")
    method = _method(method)
    height, width = _new_size(size, static_shape(images), preserve_aspect_ratio)
    shape = static_shape(images)[:-3] + (height, width, static_shape(images)[-1])
    jax_method, honours_antialias = _JAX_METHODS[method]
    if method != "nearest" and images.dtype != _dtypes.float32:
        images = cast(images, _dtypes.float32)
    return _resize(images, shape=shape, method=jax_method, antialias=bool(antialias and honours_antialias))


def _method(method):
    value = method.value if isinstance(method, ResizeMethod) else method
    if value not in _JAX_METHODS:
        raise ValueError(f"resize: unknown method {method!r}. Use one of {sorted(_JAX_METHODS)} "
                         "(or companion.image.ResizeMethod.BILINEAR, ...).")
    return value


def _new_size(size, shape, preserve_aspect_ratio):
    size = static_ints(size, "resize: size")
    if len(size) != 2 or min(size) <= 0:
        raise ValueError(f"resize: size must be [new_height, new_width] with positive sizes. "
                         f"Received: size={list(size)}")
    if not preserve_aspect_ratio:
        return size
    height, width = np.float32(shape[-3]), np.float32(shape[-2])
    scale = np.minimum(np.float32(size[0]) / height, np.float32(size[1]) / width)
    return int(np.round(scale * height)), int(np.round(scale * width))
