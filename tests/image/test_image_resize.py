"""resize against TensorFlow's outputs (fixture and documented examples) and a NumPy bilinear reference."""

import os

import numpy as np
import pytest

import companion as tf
import companion.image  # noqa: F401 - makes tf.image available however companion/__init__ is wired
from tests.checks import check_gradient

FIXTURES = os.path.join(os.path.dirname(os.path.dirname(__file__)), "fixtures")
DIAGONAL = np.eye(5, dtype=np.int32)[None, ..., None]  # the example of tf.image.resize's docstring


@pytest.fixture(scope="module")
def tf_out():
    return dict(np.load(os.path.join(FIXTURES, "tf_image_ops.npz")))


def np_bilinear(image, height, width):
    """Half-pixel-centre bilinear interpolation with edge clamping (TensorFlow 2, antialias=False)."""
    def axis(out, size):
        pos = np.clip((np.arange(out) + 0.5) * size / out - 0.5, 0, size - 1)
        low = np.floor(pos).astype(int)
        return low, np.minimum(low + 1, size - 1), pos - low

    y0, y1, fy = axis(height, image.shape[0])
    x0, x1, fx = axis(width, image.shape[1])
    fy, fx = fy[:, None, None], fx[None, :, None]
    top = image[y0][:, x0] * (1 - fx) + image[y0][:, x1] * fx
    bottom = image[y1][:, x0] * (1 - fx) + image[y1][:, x1] * fx
    return top * (1 - fy) + bottom * fy


def test_documented_bilinear_example():
    out = tf.image.resize(DIAGONAL, [3, 5])[0, ..., 0]
    want = [[0.6666667, 0.3333333, 0, 0, 0], [0, 0, 1, 0, 0], [0, 0, 0, 0.3333335, 0.6666665]]
    assert out.dtype == tf.float32
    np.testing.assert_allclose(out.numpy(), want, atol=1e-6)


def test_documented_nearest_example():
    out = tf.image.resize(DIAGONAL, [3, 5], method="nearest")[0, ..., 0]
    assert out.dtype == tf.int32
    np.testing.assert_array_equal(out.numpy(), [[1, 0, 0, 0, 0], [0, 0, 1, 0, 0], [0, 0, 0, 0, 1]])


def test_antialias_example_from_tensorflow():
    out = tf.image.resize(DIAGONAL, [3, 5], antialias=True)[0, ..., 0]
    want = [[0.5714286, 0.4285714, 0, 0, 0], [0, 0.2222222, 0.5555556, 0.2222222, 0],
            [0, 0, 0, 0.4285715, 0.5714285]]
    np.testing.assert_allclose(out.numpy(), want, atol=1e-6)


def test_preserve_aspect_ratio():
    assert tf.image.resize(DIAGONAL, [10, 20], preserve_aspect_ratio=True).shape == [1, 10, 10, 1]
    assert tf.image.resize(tf.zeros([7, 3, 1]), [10, 20], preserve_aspect_ratio=True).shape == [10, 4, 1]


def test_bilinear_matches_numpy_reference(rng):
    image = rng.uniform(size=(6, 9, 2))
    for size in ([11, 4], [3, 17], [6, 9]):
        np.testing.assert_allclose(tf.image.resize(image, size).numpy(), np_bilinear(image, *size), atol=1e-5)


@pytest.mark.parametrize("method", ["bilinear", "nearest", "area", "bicubic"])
@pytest.mark.parametrize("antialias", [False, True])
def test_matches_tensorflow(tf_out, method, antialias):
    tag = method + ("_aa" if antialias else "")
    # TensorFlow's non-antialiased bicubic reads a 1024-entry coefficient table; JAX computes the kernel.
    atol = 1e-3 if tag == "bicubic" else 1e-6
    for direction, size in (("up", [8, 11]), ("down", [3, 4])):
        got = tf.image.resize(tf_out["image"], size, method, antialias=antialias).numpy()
        want = tf_out[f"resize_{direction}_{tag}"]
        assert got.shape == want.shape
        np.testing.assert_allclose(got, want, atol=atol)


def test_batches_and_integer_inputs(tf_out):
    batch = tf.image.resize(tf_out["batch"], [3, 9])
    np.testing.assert_allclose(batch.numpy(), tf_out["resize_batch_bilinear"], atol=1e-6)
    bilinear = tf.image.resize(tf_out["pixels"], [5, 6])
    assert bilinear.dtype == tf.float32
    np.testing.assert_allclose(bilinear.numpy(), tf_out["resize_pixels_bilinear"], atol=1e-4)
    nearest = tf.image.resize(tf_out["pixels"], [5, 6], tf.image.ResizeMethod.NEAREST_NEIGHBOR)
    assert nearest.dtype == tf.uint8
    np.testing.assert_array_equal(nearest.numpy(), tf_out["resize_pixels_nearest"])


def test_gradient(rng):
    # resize computes in float32 (as TensorFlow), so finite differences use a large step
    for method in ("bilinear", "bicubic", "area"):
        def resize(x, method=method):
            return tf.cast(tf.image.resize(x, [5, 3], method), tf.float64)

        check_gradient(resize, rng.uniform(size=(3, 4, 1)), rtol=1e-2, atol=1e-3, eps=1e-2)


def test_errors():
    with pytest.raises(ValueError, match="unknown method"):
        tf.image.resize(tf.zeros([2, 2, 1]), [3, 3], method="spline")
    with pytest.raises(ValueError, match="new_height, new_width"):
        tf.image.resize(tf.zeros([2, 2, 1]), [3])
    with pytest.raises(ValueError, match="expand_dims"):
        tf.image.resize(tf.zeros([2, 2]), [3, 3])
