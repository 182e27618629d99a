"""companion.image ops against TensorFlow's outputs (fixture), NumPy formulas, and the seed rules."""

import os

import numpy as np
import pytest

import companion as tf
import companion.image  # noqa: F401 - makes tf.image available however companion/__init__ is wired
from companion._core._errors import InvalidArgumentError
from tests.checks import check_gradient, check_op

FIXTURES = os.path.join(os.path.dirname(os.path.dirname(__file__)), "fixtures")


@pytest.fixture(scope="module")
def tf_out():
    return dict(np.load(os.path.join(FIXTURES, "tf_image_ops.npz")))


def test_convert_image_dtype_matches_tensorflow(tf_out):
    image, pixels = tf_out["image"], tf_out["pixels"]
    cases = [(pixels, tf.float32, False, "convert_u8_f32"),
             (image * np.float32(1.2) - np.float32(0.1), tf.uint8, True, "convert_f32_u8"),
             (pixels, tf.int32, False, "convert_u8_i32"),
             (image, tf.float64, False, "convert_f32_f64")]
    for x, dtype, saturate, key in cases:
        got = tf.image.convert_image_dtype(x, dtype, saturate=saturate)
        assert got.dtype == dtype
        np.testing.assert_array_equal(got.numpy(), tf_out[key])


def test_convert_image_dtype_int_rules():
    x = np.array([0, 1, 255], np.uint8)
    wider = tf.image.convert_image_dtype(x, tf.uint16)  # scale (65535 + 1) // (255 + 1) = 256
    np.testing.assert_array_equal(wider.numpy(), x.astype(np.uint16) * 256)
    big = np.array([0, 65535, 32768], np.uint16)
    np.testing.assert_array_equal(tf.image.convert_image_dtype(big, tf.uint8).numpy(), [0, 255, 128])
    same = tf.constant(x)
    assert tf.image.convert_image_dtype(same, tf.uint8) is same


def test_convert_image_dtype_gradient(rng):
    check_gradient(lambda x: tf.image.convert_image_dtype(x, tf.float64), rng.uniform(size=(2, 3)))
    with pytest.raises(TypeError, match="integer and floating"):
        tf.image.convert_image_dtype(tf.constant([True]), tf.float32)


def test_rgb_to_grayscale_matches_tensorflow(tf_out):
    gray = tf.image.rgb_to_grayscale(tf_out["image"])
    np.testing.assert_allclose(gray.numpy(), tf_out["grayscale"], atol=1e-6)
    gray = tf.image.rgb_to_grayscale(tf_out["pixels"])
    assert gray.dtype == tf.uint8
    np.testing.assert_array_equal(gray.numpy(), tf_out["grayscale_u8"])
    rgb = tf.image.grayscale_to_rgb(gray)
    assert rgb.shape == [3, 4, 3] and (rgb.numpy() == gray.numpy()).all()
    with pytest.raises(ValueError, match="3 channel"):
        tf.image.rgb_to_grayscale(tf.zeros([2, 2, 4]))


def np_standardize(x):
    x = x.astype(np.float64)
    axes = tuple(range(x.ndim - 3, x.ndim))
    count = np.prod(x.shape[-3:])
    std = np.maximum(x.std(axis=axes, keepdims=True), 1 / np.sqrt(count))
    return (x - x.mean(axis=axes, keepdims=True)) / std


def test_per_image_standardization(tf_out, rng):
    cases = (("standardized", "image"), ("standardized_u8", "pixels"), ("standardized_batch", "batch"))
    for key, source in cases:
        got = tf.image.per_image_standardization(tf_out[source])
        assert got.dtype == tf.float32
        np.testing.assert_allclose(got.numpy(), tf_out[key], atol=1e-5)
    x = rng.uniform(size=(2, 3, 4, 2))
    standardize = lambda x: tf.cast(tf.image.per_image_standardization(x), tf.float64)  # noqa: E731
    check_op(standardize, np_standardize, x, rtol=1e-5, atol=1e-5, grad=False)
    check_gradient(standardize, x, rtol=1e-2, atol=1e-3, eps=1e-3)  # float32 inside: a large step
    flat = tf.image.per_image_standardization(tf.fill([2, 2, 1], 5.0))  # uniform image: no division by zero
    np.testing.assert_array_equal(flat.numpy(), np.zeros((2, 2, 1)))


def test_adjust_brightness_and_contrast():
    image = np.array([[[0.2], [0.6]]], np.float32)
    np.testing.assert_allclose(tf.image.adjust_brightness(image, 0.1).numpy(), image + 0.1)
    np.testing.assert_allclose(tf.image.adjust_contrast(image, 2.0).numpy(), [[[0.0], [0.8]]], atol=1e-6)
    pixels = np.array([[[250]]], np.uint8)
    assert tf.image.adjust_brightness(pixels, 0.5).numpy().item() == 255  # saturates


def test_flips_and_rotation(tf_out):
    np.testing.assert_array_equal(tf.image.flip_left_right(tf_out["image"]).numpy(), tf_out["flip_lr"])
    np.testing.assert_array_equal(tf.image.flip_up_down(tf_out["image"]).numpy(), tf_out["flip_ud"])
    batch = tf_out["batch"]
    np.testing.assert_array_equal(tf.image.flip_left_right(batch).numpy(), batch[:, :, ::-1])
    square = np.arange(9).reshape(3, 3, 1)
    for k in range(4):
        np.testing.assert_array_equal(tf.image.rot90(square, k).numpy(), np.rot90(square, k))


def test_random_flip_follows_seed_rules_and_flips_each_image():
    images = np.arange(64 * 3).reshape(64, 1, 3, 1)
    tf.random.set_seed(5)
    first = tf.image.random_flip_left_right(images, seed=1).numpy()
    tf.random.set_seed(5)
    again = tf.image.random_flip_left_right(images, seed=1).numpy()
    np.testing.assert_array_equal(first, again)
    flipped = [(first[i] == images[i, :, ::-1]).all() for i in range(64)]
    kept = [(first[i] == images[i]).all() for i in range(64)]
    assert all(f or k for f, k in zip(flipped, kept))
    assert 10 < sum(flipped) < 54
    single = tf.image.random_flip_up_down(images[0], seed=2)
    assert single.shape == [1, 3, 1]


def test_central_crop_matches_tensorflow(tf_out):
    for fraction, key in ((0.5, "central_crop_half"), (0.7, "central_crop_07")):
        got = tf.image.central_crop(tf_out["image"], fraction).numpy()
        assert got.shape == tf_out[key].shape
        np.testing.assert_array_equal(got, tf_out[key])
    assert tf.image.central_crop(tf.zeros([2, 10, 8, 3]), 0.5).shape == [2, 6, 4, 3]  # as TF
    with pytest.raises(ValueError, match=r"\(0, 1\]"):
        tf.image.central_crop(tf.zeros([4, 4, 1]), 0.0)


def test_random_crop_is_a_window_of_the_input():
    value = np.arange(6 * 7 * 2).reshape(6, 7, 2)
    offsets = set()
    for seed in range(20):
        crop = tf.image.random_crop(value, [3, 4, 2], seed=seed).numpy()
        top, left = np.argwhere(value[..., 0] == crop[0, 0, 0])[0]
        np.testing.assert_array_equal(crop, value[top:top + 3, left:left + 4])
        offsets.add((top, left))
    assert len(offsets) > 3
    with pytest.raises(InvalidArgumentError, match="at most"):
        tf.image.random_crop(value, [7, 7, 2])


def test_boxes_and_crop_or_pad():
    image = np.arange(4 * 6).reshape(4, 6, 1)
    np.testing.assert_array_equal(tf.image.crop_to_bounding_box(image, 1, 2, 2, 3).numpy(), image[1:3, 2:5])
    padded = tf.image.pad_to_bounding_box(image, 1, 0, 6, 7).numpy()
    assert padded.shape == (6, 7, 1) and (padded[1:5, :6] == image).all() and padded.sum() == image.sum()
    both = tf.image.resize_with_crop_or_pad(image, 6, 4).numpy()
    np.testing.assert_array_equal(both[1:5], image[:, 1:5])
    with pytest.raises(InvalidArgumentError, match="does not fit"):
        tf.image.crop_to_bounding_box(image, 3, 0, 2, 2)


@pytest.mark.skipif(not hasattr(tf, "function"), reason="companion.function not available")
def test_ops_run_inside_function():
    @tf.function
    def augment(images):
        images = tf.image.resize(images, [8, 8])
        images = tf.image.random_flip_left_right(images, seed=3)
        return tf.image.per_image_standardization(tf.image.central_crop(images, 0.5))

    out = augment(tf.random.uniform([2, 4, 4, 3]))
    assert out.shape == [2, 4, 4, 3] and out.dtype == tf.float32


def test_gradient_through_a_pipeline(rng):
    x = tf.constant(rng.uniform(size=(1, 4, 4, 3)).astype(np.float32))
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.image.rgb_to_grayscale(tf.image.flip_left_right(tf.image.resize(x, [6, 6])))
        loss = tf.reduce_sum(y)
    grad = tape.gradient(loss, x)
    assert grad.shape == [1, 4, 4, 3]
    weights = np.array([0.2989, 0.5870, 0.1140])
    np.testing.assert_allclose(grad.numpy().sum(axis=(0, 1, 2)), weights * 36, rtol=1e-4)
