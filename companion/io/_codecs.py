"""Image codecs through Pillow: `decode_jpeg`, `encode_jpeg`, `decode_png`, `encode_png`, `decode_image`.

Decoding runs on the host, like TensorFlow's codec kernels: call these eagerly or in a
``Dataset.map``, not inside code staged by ``companion.function``.
"""

import io

import numpy as np

from companion._core import _dtypes
from companion._core._convert import constant, is_tensor
from companion._core._errors import RuntimeCheckError
from companion._core._shape import TensorShape
from companion._ops._image_convert import convert_image_dtype
from companion._ops._py_function import note_data_dependent_shape

_MODES = {1: "L", 3: "RGB", 4: "RGBA"}


def decode_jpeg(contents, channels=0, ratio=1, fancy_upscaling=True, try_recover_truncated=False,
                acceptable_fraction=1, dct_method="", name=None):
    """Decodes a JPEG image to a ``uint8`` tensor ``[height, width, channels]``.

    Decoding uses libjpeg's accurate integer DCT (TensorFlow's
    ``dct_method="INTEGER_ACCURATE"``); TensorFlow's default fast DCT can differ from it by
    a few levels per pixel.

    Args:
        contents: the JPEG file's bytes (``bytes`` or a scalar string tensor).
        channels: 0 keeps the file's channels; 1 decodes to grayscale, 3 to RGB.
        ratio: downscale while decoding by 1, 2, 4 or 8.

    Example:
        >>> import companion as tf
        >>> jpeg = tf.io.encode_jpeg(tf.zeros([4, 6, 3], tf.uint8))
        >>> tf.io.decode_jpeg(jpeg).shape
        TensorShape([4, 6, 3])
    """
    if ratio not in (1, 2, 4, 8):
        raise ValueError(f"decode_jpeg: ratio must be 1, 2, 4 or 8. Received: ratio={ratio!r}")
    image = _open(contents, "decode_jpeg", "JPEG")
    mode = _mode(image, _check_channels(channels, (0, 1, 3), "decode_jpeg"))
    image.draft(mode, (image.width // ratio, image.height // ratio))  # libjpeg converts and scales
    return _decoded(constant(_pixels(image.convert(mode))), channels)


def decode_png(contents, channels=0, dtype=_dtypes.uint8, name=None):
    """Decodes a PNG image to a tensor ``[height, width, channels]`` of ``uint8`` (or ``uint16``).

    Args:
        contents: the PNG file's bytes (``bytes`` or a scalar string tensor).
        channels: 0 keeps the file's channels; 1 grayscale, 3 RGB, 4 RGBA.
        dtype: ``uint8`` or ``uint16``; 16-bit files keep their depth in ``uint16``.
    """
    image = _open(contents, "decode_png", "PNG")
    mode = _mode(image, _check_channels(channels, (0, 1, 3, 4), "decode_png"))
    pixels = _to_dtype(_png_pixels(image, mode), _dtypes.as_dtype(dtype), "decode_png")
    return _decoded(constant(pixels), channels)


def decode_image(contents, channels=None, dtype=_dtypes.uint8, name=None, expand_animations=True):
    """Decodes a JPEG, PNG, BMP or GIF image (detected from its bytes) to ``[height, width, channels]``.

    GIFs decode to ``[frames, height, width, 3]`` when ``expand_animations`` is true. A float
    ``dtype`` scales pixel values to ``[0, 1]`` (as `companion.image.convert_image_dtype`).

    Example:
        >>> import companion as tf
        >>> png = tf.io.encode_png(tf.fill([2, 2, 1], tf.constant(255, tf.uint8)))
        >>> print(tf.io.decode_image(png, dtype=tf.float32)[..., 0])
        companion.Tensor(
        [[1. 1.]
         [1. 1.]], shape=(2, 2), dtype=float32)
    """
    image = _open(contents, "decode_image", None)
    mode = _mode(image, _check_channels(channels or 0, (0, 1, 3, 4), "decode_image"))
    if channels == 1 and image.format in ("BMP", "GIF"):  # TF's decoders refuse these as well
        raise RuntimeCheckError(f"decode_image: channels=1 is not supported for {image.format} images "
                                f"(TF decodes them to 3 or 4 channels). Decode with channels=3 and "
                                f"convert "
                                "with companion.image.rgb_to_grayscale.")
    if image.format == "GIF" and expand_animations:
        frames = [_pixels(_frame(image, i).convert(mode)) for i in range(getattr(image, "n_frames", 1))]
        pixels = np.stack(frames)
    elif image.format == "PNG":
        pixels = _png_pixels(image, mode)
    else:
        pixels = _pixels(image.convert(mode))
    target = _dtypes.as_dtype(dtype)
    if target.is_floating:
        decoded = convert_image_dtype(constant(pixels), target)
    else:
        decoded = constant(_to_dtype(pixels, target, "decode_image"))
    # TF's graph knows no rank when GIF animations expand, else [height, width, channels]
    known = None if expand_animations else TensorShape([None, None, channels])
    return note_data_dependent_shape(decoded, known)


def _decoded(image, channels):
    """A decoded image, whose size TF's graph knows only as ``[None, None, channels or None]``."""
    return note_data_dependent_shape(image, TensorShape([None, None, channels or None]))


def encode_jpeg(image, format="", quality=95, progressive=False, optimize_size=False,
                chroma_downsampling=True, density_unit="in", x_density=300, y_density=300,
                xmp_metadata="", name=None):
    """Encodes a ``uint8`` image ``[height, width, 1 or 3]`` as JPEG; returns a scalar string tensor."""
    pixels = _image_array(image, "encode_jpeg", (1, 3))
    options = {"quality": int(quality), "progressive": bool(progressive), "optimize": bool(optimize_size),
               "subsampling": 2 if chroma_downsampling else 0}
    if density_unit == "in":
        options["dpi"] = (int(x_density), int(y_density))
    return _save(pixels, "JPEG", **options)


def encode_png(image, compression=-1, name=None):
    """Encodes a ``uint8``/``uint16`` image ``[height, width, 1, 3 or 4]`` as PNG; returns a string tensor."""
    pixels = _image_array(image, "encode_png", (1, 3, 4), kinds=(np.uint8, np.uint16))
    level = 6 if compression == -1 else int(compression)
    return _save(pixels, "PNG", compress_level=level)


# -- private helpers ---------------------------------------------------------------------

def _open(contents, what, expected_format):
    # deferred: Pillow loads on first use, kept off `import companion`
    from PIL import Image, UnidentifiedImageError

    data = contents.numpy() if is_tensor(contents) else contents
    if not isinstance(data, (bytes, bytearray)):
        raise TypeError(f"{what} takes the file's bytes (bytes or a scalar string tensor, e.g. from "
                        f"companion.io.read_file). Received {type(data).__name__}: {data!r:.60}")
    try:
        image = Image.open(io.BytesIO(data))
    except UnidentifiedImageError:
        raise RuntimeCheckError(f"{what}: the {len(data)} bytes starting {bytes(data[:12])!r} are not an "
                                "image Pillow can read (JPEG, PNG, BMP, GIF).") from None
    if expected_format and image.format != expected_format:
        raise RuntimeCheckError(f"{what} got a {image.format} image, not {expected_format}. "
                                "Use companion.io.decode_image to decode any format.")
    return image


def _check_channels(channels, allowed, what):
    if channels not in allowed:
        raise ValueError(f"{what}: channels must be one of {allowed} (0: as in the file). "
                         f"Received: channels={channels!r}")
    return channels


def _mode(image, channels):
    if channels:
        return _MODES[channels]
    if image.mode in ("L", "RGB", "RGBA"):
        return image.mode
    if image.mode in ("I;16", "I;16B", "I"):
        return "I;16" if image.format == "PNG" else "L"
    return "RGBA" if "A" in image.mode or "transparency" in image.info else "RGB"


# libpng's rgb_to_gray weights as TF's PNG decoder sets them (0.299, 0.587 in 1/32768ths, truncated)
_GRAY_RED, _GRAY_GREEN = 29900 * 32768 // 100000, 58700 * 32768 // 100000
_GRAY_BLUE = 32768 - _GRAY_RED - _GRAY_GREEN


def _png_pixels(image, mode):
    """A PNG's pixels in ``mode``; color to one channel as libpng converts it for TF (truncated
    fixed-point luma, a gray pixel kept as it is), not as Pillow rounds it."""
    if mode != "L" or image.mode in ("L", "LA", "1") or image.mode.startswith("I"):
        return _pixels(image.convert(mode))
    rgb = np.asarray(image.convert("RGB"), dtype=np.int64)
    red, green, blue = rgb[..., 0], rgb[..., 1], rgb[..., 2]
    luma = (_GRAY_RED * red + _GRAY_GREEN * green + _GRAY_BLUE * blue) >> 15
    gray = np.where((red == green) & (green == blue), red, luma)
    return gray.astype(np.uint8)[..., None]


def _pixels(image):
    if image.mode == "I;16":
        return np.asarray(image, dtype=np.uint16)[..., None]
    array = np.asarray(image)
    return array[..., None] if array.ndim == 2 else array


def _frame(image, index):
    image.seek(index)
    return image


def _to_dtype(pixels, dtype, what):
    if dtype == _dtypes.uint8:
        return pixels if pixels.dtype == np.uint8 else (pixels >> 8).astype(np.uint8)
    if dtype == _dtypes.uint16:
        return pixels.astype(np.uint16) * 257 if pixels.dtype == np.uint8 else pixels
    raise ValueError(f"{what}: dtype must be uint8, uint16 or a float dtype. Received: {dtype.name}")


def _image_array(image, what, channels, kinds=(np.uint8,)):
    array = np.asarray(image)
    if array.ndim != 3 or array.shape[-1] not in channels or array.dtype.type not in kinds:
        raise ValueError(f"{what} takes a [height, width, channels] image with channels in {channels} and "
                         f"dtype {'/'.join(k.__name__ for k in kinds)}. Received shape {array.shape}, dtype "
                         f"{array.dtype}. Convert floats first: companion.image.convert_image_dtype(x, "
                         "companion.uint8, saturate=True).")
    return array


def _save(pixels, fmt, **options):
    # deferred: Pillow loads on first use, kept off `import companion`
    from PIL import Image

    image = Image.fromarray(pixels[..., 0] if pixels.shape[-1] == 1 else pixels)
    buffer = io.BytesIO()
    image.save(buffer, fmt, **options)
    return constant(buffer.getvalue())
