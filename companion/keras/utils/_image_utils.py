"""`img_to_array`, `array_to_img`, `load_img`, `save_img`: NumPy arrays and Pillow images, Keras 3's rules.

Pillow is imported on first use (it comes with matplotlib); these functions raise ImportError
without it.
"""

import io
import pathlib
import warnings

import numpy as np

from companion.keras.backend._config import floatx

# load_img's `interpolation` names → Pillow's resampling filters (Image.Resampling members)
_PIL_INTERPOLATIONS = {"nearest": "NEAREST", "bilinear": "BILINEAR", "bicubic": "BICUBIC",
                       "hamming": "HAMMING", "box": "BOX", "lanczos": "LANCZOS"}


def array_to_img(x, data_format=None, scale=True, dtype=None):
    """Converts a 3D array ``[height, width, channels]`` (1, 3 or 4 channels) to a Pillow image.

    Args:
        x: an array-like or tensor of rank 3.
        data_format: ``"channels_last"`` (default) or ``"channels_first"``.
        scale: shift and scale the values so that the minimum is 0 and the maximum 255.
        dtype: the dtype ``x`` is read as first (default ``"float32"``).

    Returns:
        A ``PIL.Image.Image``: mode ``"RGBA"``, ``"RGB"``, ``"L"``, or ``"I"`` (one channel with a
        value above 255).

    Raises:
        ValueError: ``x`` is not of rank 3, or has another number of channels.

    Example:
        >>> import numpy as np
        >>> import companion as tf
        >>> image = tf.keras.utils.array_to_img(np.array([[[0.0], [0.5]], [[1.0], [0.25]]]))
        >>> image.mode, image.size, np.asarray(image).tolist()
        ('L', (2, 2), [[0, 127], [255, 63]])
    """
    data_format = standardize_data_format(data_format)
    pil_image = _pil_image("array_to_img")
    x = np.asarray(x, dtype=floatx() if dtype is None else dtype)
    if x.ndim != 3:
        raise ValueError(f"array_to_img expects an image array of rank 3 (a single image: height, width, "
                         f"channels). Received an array of shape {x.shape}")
    if data_format == "channels_first":
        x = x.transpose(1, 2, 0)
    if scale:
        x = x - np.min(x)
        x_max = np.max(x)
        if x_max != 0:
            x /= x_max
        x *= 255
    if x.shape[2] in (3, 4):
        return pil_image.fromarray(x.astype("uint8"))
    if x.shape[2] == 1:
        if np.max(x) > 255:  # a 32-bit signed integer grayscale image (Pillow's mode "I")
            return pil_image.fromarray(x[:, :, 0].astype("int32"))
        return pil_image.fromarray(x[:, :, 0].astype("uint8"))
    raise ValueError(f"array_to_img expects 1 (grayscale), 3 (RGB) or 4 (RGBA) channels. Received an array "
                     f"of shape {x.shape} ({x.shape[2]} channels, data_format={data_format!r})")


def img_to_array(img, data_format=None, dtype=None):
    """Converts a Pillow image (or any 2D/3D array-like) to a 3D NumPy array.

    A grayscale image gets a channel axis of size 1.

    Args:
        img: a ``PIL.Image.Image`` (or an array-like of rank 2 or 3).
        data_format: ``"channels_last"`` (default: ``[height, width, channels]``) or
            ``"channels_first"``.
        dtype: the dtype of the result (default ``"float32"``).

    Raises:
        ValueError: the image is not of rank 2 or 3.

    Example:
        >>> import numpy as np
        >>> import companion as tf
        >>> image = tf.keras.utils.array_to_img(np.zeros((2, 3, 3)), scale=False)
        >>> array = tf.keras.utils.img_to_array(image)
        >>> array.shape, array.dtype
        ((2, 3, 3), dtype('float32'))
    """
    data_format = standardize_data_format(data_format)
    x = np.asarray(img, dtype=floatx() if dtype is None else dtype)
    if x.ndim == 3:
        return x.transpose(2, 0, 1) if data_format == "channels_first" else x
    if x.ndim == 2:
        shape = (1, *x.shape) if data_format == "channels_first" else (*x.shape, 1)
        return x.reshape(shape)
    raise ValueError(f"img_to_array expects an image of rank 2 (grayscale) or 3. Received an array of shape "
                     f"{x.shape}")


def save_img(path, x, data_format=None, file_format=None, scale=True, **kwargs):
    """Saves an image array (see `array_to_img`) to a path or file object with Pillow.

    Args:
        path: a path or a writable binary file object.
        x: the image array, rank 3.
        data_format: ``"channels_last"`` (default) or ``"channels_first"``.
        file_format: the format (``"png"``, ``"jpeg"``, ...); by default the path's extension. Pass
            it when ``path`` is a file object.
        scale: rescale the values to ``[0, 255]`` first.
        **kwargs: passed to ``PIL.Image.Image.save``.

    An RGBA image saved as JPEG is converted to RGB, with a warning.

    Example:
        >>> import os, tempfile
        >>> import numpy as np
        >>> import companion as tf
        >>> path = os.path.join(tempfile.mkdtemp(), "image.png")
        >>> tf.keras.utils.save_img(path, np.ones((4, 5, 3)), scale=False)
        >>> tf.keras.utils.load_img(path).size
        (5, 4)
    """
    data_format = standardize_data_format(data_format)
    if file_format is None and isinstance(path, (str, pathlib.Path)):
        file_format = pathlib.Path(path).suffix[1:].lower()
    if file_format and file_format.lower() == "jpg":
        file_format = "jpeg"
    img = array_to_img(x, data_format=data_format, scale=scale)
    if img.mode == "RGBA" and file_format == "jpeg":
        warnings.warn("The JPEG format does not support RGBA images, converting to RGB.", stacklevel=2)
        img = img.convert("RGB")
    img.save(path, format=file_format, **kwargs)


def load_img(path, color_mode="rgb", target_size=None, interpolation="nearest", keep_aspect_ratio=False):
    """Loads an image file into a Pillow image, converted to ``color_mode`` and resized by Pillow.

    Args:
        path: a path (``str``, ``bytes``, ``pathlib.Path``) or an ``io.BytesIO``.
        color_mode: ``"rgb"`` (default), ``"rgba"`` or ``"grayscale"`` (a 16- or 32-bit grayscale
            image keeps its depth; other modes become 8-bit ``"L"``).
        target_size: None (keep the size) or ``(height, width)``.
        interpolation: Pillow's resampling filter for the resize: ``"nearest"`` (default),
            ``"bilinear"``, ``"bicubic"``, ``"hamming"``, ``"box"`` or ``"lanczos"``.
        keep_aspect_ratio: resize the largest centred crop with the target aspect ratio instead of
            the whole image.

    Returns:
        A ``PIL.Image.Image``; `img_to_array` turns it into an array.

    Raises:
        TypeError: ``path`` is not a path or ``io.BytesIO``.
        ValueError: an unknown ``color_mode`` or ``interpolation``.

    Example:
        >>> import io
        >>> import numpy as np
        >>> import companion as tf
        >>> buffer = io.BytesIO()
        >>> tf.keras.utils.save_img(buffer, np.ones((4, 6, 3)), file_format="png")
        >>> image = tf.keras.utils.load_img(buffer, color_mode="grayscale", target_size=(2, 3))
        >>> image.mode, image.size
        ('L', (3, 2))
    """
    pil_image = _pil_image("load_img")
    if isinstance(path, io.BytesIO):
        img = pil_image.open(path)
    elif isinstance(path, (pathlib.Path, bytes, str)):
        if isinstance(path, pathlib.Path):
            path = str(path.resolve())
        with open(path, "rb") as file:
            img = pil_image.open(io.BytesIO(file.read()))
    else:
        raise TypeError(f"load_img: `path` must be a path (str, bytes, pathlib.Path) or an io.BytesIO. "
                        f"Received: {path!r} of type {type(path).__name__}")
    if color_mode == "grayscale":
        if img.mode not in ("L", "I;16", "I"):
            img = img.convert("L")
    elif color_mode == "rgba":
        if img.mode != "RGBA":
            img = img.convert("RGBA")
    elif color_mode == "rgb":
        if img.mode != "RGB":
            img = img.convert("RGB")
    else:
        raise ValueError(f"load_img: `color_mode` must be 'grayscale', 'rgb' or 'rgba'. Received: "
                         f"color_mode={color_mode!r}")
    if target_size is None:
        return img
    width_height = (target_size[1], target_size[0])
    if img.size == width_height:
        return img
    if interpolation not in _PIL_INTERPOLATIONS:
        raise ValueError(f"load_img: unknown `interpolation`. Expected one of "
                         f"{', '.join(_PIL_INTERPOLATIONS)}. Received: interpolation={interpolation!r}")
    resample = getattr(pil_image.Resampling, _PIL_INTERPOLATIONS[interpolation])
    if not keep_aspect_ratio:
        return img.resize(width_height, resample)
    width, height = img.size
    target_width, target_height = width_height
    crop_height = min(height, (width * target_height) // target_width)
    crop_width = min(width, (height * target_width) // target_height)
    top, left = (height - crop_height) // 2, (width - crop_width) // 2
    return img.resize(width_height, resample, box=[left, top, left + crop_width, top + crop_height])


def standardize_data_format(data_format):
    """``"channels_last"`` for None, else ``data_format`` lower-cased, checked (Keras's rule)."""
    if data_format is None:
        return "channels_last"
    value = str(data_format).lower()
    if value not in ("channels_first", "channels_last"):
        raise ValueError(f"`data_format` must be 'channels_first' or 'channels_last'. Received: "
                         f"data_format={data_format!r}")
    return value


def _pil_image(what):
    try:
        # deferred: Pillow loads on first use, kept off `import companion`
        from PIL import Image
    except ImportError:
        raise ImportError(f"{what} needs Pillow (PIL.Image), which is not installed: pip install pillow"
                          ) from None
    return Image
