"""image.stateless_random_*: each is its deterministic op applied with the value TF's rule draws
from `random.stateless_uniform` for the seed (NumPy applies the same change as the oracle)."""

import numpy as np
import pytest

import companion as tf

IMAGE = np.random.default_rng(0).uniform(0, 1, (4, 5, 3)).astype(np.float32)
SEEDS = [[1, 2], [3, 4], [7, 7], [10, 0]]


def _uniform(seed, shape=(), low=0.0, high=1.0):
    return tf.random.stateless_uniform(list(shape), seed, minval=low, maxval=high).numpy()


@pytest.mark.parametrize("seed", SEEDS)
def test_flips_follow_the_draw(seed):
    flipped = tf.image.stateless_random_flip_left_right(IMAGE, seed).numpy()
    np.testing.assert_array_equal(flipped, IMAGE[:, ::-1] if _uniform(seed) < 0.5 else IMAGE)
    batch = np.stack([IMAGE, IMAGE[::-1], IMAGE * 0.5])
    flips = np.round(_uniform(seed, (3,)))
    want = np.stack([b[::-1] if f else b for b, f in zip(batch, flips)])
    np.testing.assert_array_equal(tf.image.stateless_random_flip_up_down(batch, seed).numpy(), want)


@pytest.mark.parametrize("seed", SEEDS)
def test_brightness_and_contrast_use_the_drawn_factor(seed):
    delta = _uniform(seed, low=-0.3, high=0.3)
    np.testing.assert_allclose(tf.image.stateless_random_brightness(IMAGE, 0.3, seed).numpy(), IMAGE + delta,
                               rtol=1e-6)
    factor = _uniform(seed, low=0.2, high=1.8)
    mean = IMAGE.mean(axis=(0, 1), keepdims=True)
    np.testing.assert_allclose(tf.image.stateless_random_contrast(IMAGE, 0.2, 1.8, seed).numpy(),
                               (IMAGE - mean) * factor + mean, rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("seed", SEEDS)
def test_saturation_and_hue_match_their_adjust_ops(seed):
    factor = float(_uniform(seed, low=0.5, high=1.5))
    np.testing.assert_allclose(tf.image.stateless_random_saturation(IMAGE, 0.5, 1.5, seed).numpy(),
                               tf.image.adjust_saturation(IMAGE, factor).numpy(), rtol=1e-6)
    delta = float(_uniform(seed, low=-0.2, high=0.2))
    np.testing.assert_allclose(tf.image.stateless_random_hue(IMAGE, 0.2, seed).numpy(),
                               tf.image.adjust_hue(IMAGE, delta).numpy(), rtol=1e-6)


@pytest.mark.parametrize("seed", SEEDS)
def test_crop_offsets_are_draws_modulo_the_room(seed):
    draws = tf.random.stateless_uniform([3], seed, maxval=2**31 - 1, dtype=tf.int32).numpy()
    top, left, _ = draws % np.array([3, 3, 1])
    crop = tf.image.stateless_random_crop(IMAGE, [2, 3, 3], seed).numpy()
    np.testing.assert_array_equal(crop, IMAGE[top:top + 2, left:left + 3])


def test_tensorflows_flip_for_a_seed():
    # TF 2.21 printed [0, 1, 2, 3] for stateless_random_flip_left_right(range(4) image, seed=[1, 2])
    image = np.arange(4.0, dtype=np.float32).reshape(1, 4, 1)
    assert tf.image.stateless_random_flip_left_right(image, [1, 2])[0, :, 0].numpy().tolist() == [0, 1, 2, 3]


@pytest.mark.parametrize("call, error", [
    (lambda: tf.image.stateless_random_brightness(IMAGE, -1.0, [1, 2]), ValueError),
    (lambda: tf.image.stateless_random_contrast(IMAGE, 1.0, 0.5, [1, 2]), ValueError),
    (lambda: tf.image.stateless_random_hue(IMAGE, 0.7, [1, 2]), ValueError),
    (lambda: tf.image.stateless_random_crop(IMAGE, [5, 3, 3], [1, 2]), tf.errors.InvalidArgumentError),
    (lambda: tf.image.stateless_random_flip_left_right(IMAGE[0], [1, 2]), ValueError),
])
def test_errors(call, error):
    with pytest.raises(error):
        call()
