"""Image codecs against TensorFlow's decoder output for the same JPEG bytes, and round trips."""

import os

import numpy as np
import pytest

import companion as tf
import companion.image  # noqa: F401 - makes tf.image available however companion/__init__ is wired
import companion.io as tfio
from companion._core._errors import InvalidArgumentError, NotFoundError

FIXTURES = os.path.join(os.path.dirname(os.path.dirname(__file__)), "fixtures")


@pytest.fixture(scope="module")
def expected():
    return np.load(os.path.join(FIXTURES, "tf_examples_expected.npz"), allow_pickle=True)


@pytest.mark.parametrize("index", [0, 1, 2])
def test_decode_jpeg_equals_tensorflows_accurate_dct(expected, index):
    jpeg = expected[f"single{index}/image"][()]
    decoded = tfio.decode_jpeg(jpeg)
    assert decoded.dtype == tf.uint8
    np.testing.assert_array_equal(decoded.numpy(), expected[f"jpeg{index}/accurate"])
    np.testing.assert_array_equal(tfio.decode_jpeg(jpeg, channels=1).numpy(), expected[f"jpeg{index}/gray"])
    fast = expected[f"jpeg{index}/decoded"].astype(int)  # TensorFlow's default (fast) DCT
    assert np.abs(decoded.numpy().astype(int) - fast).max() <= 8


def test_decode_jpeg_ratio_and_alias(expected):
    jpeg = tf.constant(expected["single0/image"][()])
    assert tfio.decode_jpeg(jpeg, ratio=2).shape == [3, 4, 3]
    assert tf.image.decode_jpeg is tfio.decode_jpeg


def test_encode_jpeg_round_trip(expected):
    original = expected["jpeg0/original"]
    jpeg = tfio.encode_jpeg(tf.constant(original), quality=100, chroma_downsampling=False)
    assert jpeg.dtype == tf.string and jpeg.numpy()[:2] == b"\xff\xd8"
    assert np.abs(tfio.decode_jpeg(jpeg).numpy().astype(int) - original).max() <= 6


def test_png_round_trip_is_lossless(rng):
    for channels in (1, 3, 4):
        pixels = rng.integers(0, 256, (5, 7, channels)).astype(np.uint8)
        png = tfio.encode_png(pixels)
        np.testing.assert_array_equal(tfio.decode_png(png).numpy(), pixels)
        np.testing.assert_array_equal(tfio.decode_image(png).numpy(), pixels)


def test_decode_png_sixteen_bit(rng):
    pixels = rng.integers(0, 65536, (3, 4, 1)).astype(np.uint16)
    png = tfio.encode_png(pixels)
    np.testing.assert_array_equal(tfio.decode_png(png, dtype=tf.uint16).numpy(), pixels)


def test_decode_image_to_float_and_channels(expected):
    jpeg = expected["single0/image"][()]
    floats = tfio.decode_image(jpeg, dtype=tf.float32)
    np.testing.assert_allclose(floats.numpy(), expected["jpeg0/accurate"] / 255.0, rtol=1e-6)
    assert tfio.decode_image(jpeg, channels=1).shape == [6, 8, 1]


def test_codec_errors(expected):
    with pytest.raises(InvalidArgumentError, match="not an image"):
        tfio.decode_jpeg(b"not an image at all")
    with pytest.raises(InvalidArgumentError, match="decode_image"):
        tfio.decode_jpeg(tfio.encode_png(np.zeros((2, 2, 1), np.uint8)))
    with pytest.raises(TypeError, match="bytes"):
        tfio.decode_jpeg(np.zeros(3))
    with pytest.raises(ValueError, match="channels"):
        tfio.decode_jpeg(expected["single0/image"][()], channels=2)
    with pytest.raises(ValueError, match="convert_image_dtype"):
        tfio.encode_jpeg(np.zeros((2, 2, 3), np.float32))


def test_read_and_write_file(tmp_path):
    path = tmp_path / "blob.bin"
    tfio.write_file(str(path), tf.constant(b"\x00\x01payload"))
    assert tfio.read_file(tf.constant(str(path))).numpy() == b"\x00\x01payload"
    with pytest.raises(NotFoundError, match="no such file"):
        tfio.read_file(tmp_path / "missing")


def test_color_png_to_one_channel_is_libpngs_truncated_luma_and_bmp_gif_refuse_it():
    import io as _io

    from PIL import Image

    rng = np.random.default_rng(3)
    rgb = rng.integers(0, 256, size=(16, 16, 3), dtype=np.uint8)
    rgb[0, :16] = np.arange(0, 256, 16)[:, None]
    gray = tf.io.decode_png(tf.io.encode_png(rgb), channels=1).numpy()[..., 0].astype(np.int64)
    r, g, b = (rgb[..., i].astype(np.int64) for i in range(3))
    luma = (9797 * r + 19234 * g + 3737 * b) >> 15  # libpng's weights for 0.299, 0.587
    np.testing.assert_array_equal(gray, np.where((r == g) & (g == b), r, luma))
    buffer = _io.BytesIO()
    Image.fromarray(rgb).save(buffer, format="BMP")
    with pytest.raises(tf.errors.InvalidArgumentError, match="channels=1 is not supported for BMP"):
        tf.io.decode_image(buffer.getvalue(), channels=1)
