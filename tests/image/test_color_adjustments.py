"""tf.image's HSV, YIQ/YUV, gamma, measures and gradients against colorsys and NumPy formulas."""

import colorsys

import numpy as np
import pytest

import companion as tf

RNG = np.random.default_rng(6)
IMG = RNG.random((2, 4, 5, 3)).astype(np.float32)


def test_hsv_round_trip_and_colorsys():
    hsv = tf.image.rgb_to_hsv(IMG).numpy()
    expected = np.array([colorsys.rgb_to_hsv(*px) for px in IMG.reshape(-1, 3)]).reshape(IMG.shape)
    np.testing.assert_allclose(hsv, expected, atol=1e-5)
    np.testing.assert_allclose(tf.image.hsv_to_rgb(hsv).numpy(), IMG, atol=1e-5)


def test_hue_and_saturation_adjustments_follow_hsv():
    shifted = tf.image.adjust_hue(IMG, 0.3).numpy().reshape(-1, 3)
    expected = [colorsys.hsv_to_rgb((h + 0.3) % 1.0, s, v) for h, s, v in
                (colorsys.rgb_to_hsv(*px) for px in IMG.reshape(-1, 3))]
    np.testing.assert_allclose(shifted, expected, atol=1e-5)
    saturated = tf.image.adjust_saturation(IMG, 0.5).numpy().reshape(-1, 3)
    expected = [colorsys.hsv_to_rgb(h, min(s * 0.5, 1.0), v) for h, s, v in
                (colorsys.rgb_to_hsv(*px) for px in IMG.reshape(-1, 3))]
    np.testing.assert_allclose(saturated, expected, atol=1e-5)
    u8 = (IMG[0] * 255).astype(np.uint8)
    assert tf.image.adjust_hue(u8, 0.1).dtype == tf.uint8


def test_gamma_colour_spaces_and_measures():
    np.testing.assert_allclose(tf.image.adjust_gamma(IMG, 2.0, 0.5).numpy(), 0.5 * IMG ** 2, rtol=1e-6)
    yiq = tf.image.rgb_to_yiq(IMG).numpy()
    np.testing.assert_allclose(yiq[..., 0], IMG @ np.array([0.299, 0.587, 0.114]), rtol=1e-5)
    np.testing.assert_allclose(tf.image.yiq_to_rgb(yiq).numpy(), IMG, atol=1e-4)
    np.testing.assert_allclose(tf.image.yuv_to_rgb(tf.image.rgb_to_yuv(IMG)).numpy(), IMG, atol=1e-4)
    variation = np.abs(np.diff(IMG, axis=1)).sum((1, 2, 3)) + np.abs(np.diff(IMG, axis=2)).sum((1, 2, 3))
    np.testing.assert_allclose(tf.image.total_variation(IMG).numpy(), variation, rtol=1e-5)
    mse = np.mean((IMG[0] - IMG[1]) ** 2)
    assert float(tf.image.psnr(IMG[0], IMG[1], 1.0)) == pytest.approx(-10 * np.log10(mse), rel=1e-5)
    dy, dx = tf.image.image_gradients(IMG)
    np.testing.assert_allclose(dy.numpy()[:, :-1], np.diff(IMG, axis=1), atol=1e-7)
    np.testing.assert_allclose(dx.numpy()[:, :, :-1], np.diff(IMG, axis=2), atol=1e-7)
    assert (dy.numpy()[:, -1] == 0).all() and tf.image.transpose(IMG).shape == (2, 5, 4, 3)
    with pytest.raises(TypeError, match="signed or float"):
        tf.image.total_variation(IMG.astype(np.uint8))


def test_sobel_edges_of_a_ramp_and_random_adjustments():
    ramp = np.tile(np.arange(6, dtype=np.float32), (6, 1))[None, :, :, None]  # rises by 1 across
    edges = tf.image.sobel_edges(ramp).numpy()
    assert edges.shape == (1, 6, 6, 1, 2)
    np.testing.assert_allclose(edges[0, 1:-1, 1:-1, 0, 1], 8.0)  # the horizontal filter: 4 * 2 * slope
    np.testing.assert_allclose(edges[0, 1:-1, 1:-1, 0, 0], 0.0)
    bright = tf.image.random_brightness(IMG, 0.2, seed=1).numpy()
    delta = bright - IMG
    assert np.allclose(delta, delta.flat[0], atol=1e-6) and abs(delta.flat[0]) <= 0.2
    tf.random.set_seed(3)
    first = tf.image.random_saturation(IMG, 0.5, 1.5, seed=2).numpy()
    tf.random.set_seed(3)
    np.testing.assert_array_equal(tf.image.random_saturation(IMG, 0.5, 1.5, seed=2).numpy(), first)
    with pytest.raises(ValueError, match="max_delta"):
        tf.image.random_hue(IMG, 0.7)
