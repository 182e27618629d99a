"""Keras image preprocessing layers against NumPy: crops, resizes, exact rotations/shifts, and the
random layers' training switch, ranges and seeding."""

import numpy as np
import pytest

import companion as tf

L = tf.keras.layers
IMG = np.arange(2 * 5 * 6 * 2, dtype=np.float32).reshape(2, 5, 6, 2)


def test_center_crop_and_resizing():
    np.testing.assert_array_equal(L.CenterCrop(3, 2)(IMG).numpy(), IMG[:, 1:4, 2:4])
    assert L.Resizing(3, 4)(IMG).shape == (2, 3, 4, 2)
    same = L.Resizing(5, 6)(IMG).numpy()
    np.testing.assert_allclose(same, IMG, rtol=1e-6)
    with pytest.raises(NotImplementedError, match="pad_to_aspect_ratio"):
        L.Resizing(4, 4, pad_to_aspect_ratio=True)


def test_exact_rotations_and_shifts_match_numpy():
    square = np.arange(2 * 5 * 5 * 1, dtype=np.float32).reshape(2, 5, 5, 1)
    quarter = L.RandomRotation((0.25, 0.25))(square).numpy()  # a quarter turn counter-clockwise
    np.testing.assert_allclose(quarter, np.rot90(square, 1, axes=(1, 2)), atol=1e-4)
    half = L.RandomRotation((0.5, 0.5))(square).numpy()
    np.testing.assert_allclose(half, square[:, ::-1, ::-1], atol=1e-4)
    shifted = L.RandomTranslation((0.2, 0.2), (0.0, 0.0), fill_mode="constant")(square).numpy()
    np.testing.assert_allclose(shifted[:, 1:], square[:, :-1], atol=1e-5)  # one row (20 % of 5) down
    assert (shifted[:, 0] == 0).all()
    same = L.RandomZoom((0.0, 0.0))(square).numpy()
    np.testing.assert_allclose(same, square, atol=1e-5)


def test_random_layers_switch_with_training_and_stay_in_range():
    flip = L.RandomFlip("horizontal", seed=3)
    np.testing.assert_array_equal(flip(IMG, training=False).numpy(), IMG)
    flipped = flip(IMG).numpy()  # called directly: training, as in Keras 3
    for out, image in zip(flipped, IMG):
        assert np.array_equal(out, image) or np.array_equal(out, image[:, ::-1])
    crop = L.RandomCrop(3, 4, seed=1)(IMG).numpy()
    assert crop.shape == (2, 3, 4, 2)
    assert any(np.array_equal(crop, IMG[:, i:i + 3, j:j + 4]) for i in range(3) for j in range(3))
    bright = L.RandomBrightness(0.2, value_range=(0, 1000), seed=2)(IMG + 300).numpy()
    delta = bright - (IMG + 300)  # far from the range's ends: nothing clipped
    assert np.allclose(delta[0], delta[0].flat[0], atol=1e-4) and abs(delta[0].flat[0]) <= 0.2 * 1000
    contrast = L.RandomContrast(0.5, value_range=(0, 100))(IMG).numpy()
    assert contrast.min() >= 0 and contrast.max() <= 100
    first = L.RandomRotation(0.2, seed=5)(IMG).numpy()
    np.testing.assert_array_equal(L.RandomRotation(0.2, seed=5)(IMG).numpy(), first)  # seeded: repeatable


def test_augmentation_in_a_model_is_active_only_in_fit():
    model = tf.keras.Sequential([L.Input((5, 6, 2)), L.RandomFlip("horizontal"), L.RandomRotation(0.2),
                                 L.Flatten(), L.Dense(1)])
    np.testing.assert_array_equal(model.predict(IMG, verbose=0), model.predict(IMG, verbose=0))
    model.compile("sgd", "mse")
    model.fit(IMG, np.ones((2, 1), np.float32), epochs=1, verbose=0)
