"""AutoContrast, Solarization and Equalization against NumPy oracles of Keras 3's formulas."""

import numpy as np
import pytest

import companion as tf
from companion.keras import layers

RNG = np.random.default_rng(0)
X = (RNG.random((2, 6, 7, 3)) * 200 + 20).astype(np.float32)


def np_auto_contrast(x):
    low, high = x.min(axis=(1, 2), keepdims=True), x.max(axis=(1, 2), keepdims=True)
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.clip((x - low) * 255.0 / (high - low), 0, 255)


def np_equalize(x, bins=256):
    """Keras's equalization of each channel over the whole batch (0-255 values)."""
    out = np.empty_like(x)
    for c in range(x.shape[-1]):
        channel = x[..., c]
        indices = np.clip((channel * (bins - 1) / 255.0).astype(np.int32), 0, bins - 1)
        hist = np.bincount(indices.ravel(), minlength=bins)
        if np.count_nonzero(hist) <= 1:
            out[..., c] = channel
            continue
        cdf = np.cumsum(hist)
        cdf_min = cdf[np.nonzero(cdf)[0][0]]
        lookup = np.clip(np.round((cdf - cdf_min) * 255 / max(cdf[-1] - cdf_min, 1)), 0, 255)
        out[..., c] = lookup[np.clip(channel / 255.0 * (bins - 1), 0, bins - 1).astype(np.int32)]
    return out


def test_auto_contrast_matches_numpy_and_keeps_constant_channels():
    x = X.copy()
    x[1, :, :, 2] = 7.0
    out = layers.AutoContrast()(x).numpy()
    expected = np_auto_contrast(x)
    expected[1, :, :, 2] = 7.0  # 0/0 is NaN: Keras keeps the input there
    np.testing.assert_allclose(out, expected, rtol=1e-5, atol=1e-4)
    np.testing.assert_allclose(layers.AutoContrast(value_range=(1, 0))(X / 255.0).numpy(),
                               np_auto_contrast(X) / 255.0, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(layers.AutoContrast()(X[0]).numpy(), np_auto_contrast(X[:1])[0], rtol=1e-5,
                               atol=1e-4)
    assert layers.AutoContrast()(X.astype(np.uint8)).dtype == tf.float32


def test_solarization_defaults_invert_and_inference_passes_through():
    np.testing.assert_allclose(layers.Solarization()(X).numpy(), 255.0 - X, rtol=1e-6)
    np.testing.assert_allclose(layers.Solarization(value_range=(-1, 1))(X / 128 - 1).numpy(),
                               -(X / 128 - 1), rtol=1e-5, atol=1e-5)
    np.testing.assert_array_equal(layers.Solarization()(X, training=False).numpy(), X)
    out = layers.Solarization(addition_factor=0.3, threshold_factor=(0.5, 0.9), seed=1)(X).numpy()
    assert out.shape == X.shape and out.min() >= 0 and out.max() <= 255
    model = tf.keras.Sequential([tf.keras.Input((6, 7, 3)), layers.Solarization()])
    np.testing.assert_array_equal(model.predict(X, verbose=0), X)


def test_equalization_matches_numpy_over_the_batch():
    x = X.copy()
    x[..., 1] = np.round(x[..., 1] / 40) * 40
    x[..., 2] = 17.0
    np.testing.assert_allclose(layers.Equalization()(x).numpy(), np_equalize(x), atol=1e-4)
    np.testing.assert_allclose(layers.Equalization(bins=16)(x).numpy(), np_equalize(x, 16), atol=1e-4)
    np.testing.assert_allclose(layers.Equalization(value_range=(0, 1))(x / 255).numpy(), np_equalize(x) / 255,
                               atol=1e-5)
    first = layers.Equalization(data_format="channels_first")(np.moveaxis(x, -1, 1)).numpy()
    np.testing.assert_allclose(first, np.moveaxis(np_equalize(x), -1, 1), atol=1e-4)
    np.testing.assert_array_equal(layers.Equalization()(x, training=False).numpy(), x)
    traced = tf.function(lambda t: layers.Equalization()(t))(x)
    np.testing.assert_allclose(traced.numpy(), np_equalize(x), atol=1e-4)


@pytest.mark.parametrize("layer, expected", [
    (layers.AutoContrast(name="a"), {"data_format": "channels_last", "value_range": [0, 255]}),
    (layers.Solarization(addition_factor=0.5, threshold_factor=[0.7, 0.2], seed=3, name="s"),
     {"value_range": [0, 255], "addition_factor": (0, 0.5), "threshold_factor": (0.2, 0.7), "seed": 3}),
    (layers.Equalization(value_range=(1, 0), bins=8, name="e"), {"bins": 8, "value_range": [0, 1]}),
])
def test_configs_round_trip(layer, expected):
    config = layer.get_config()
    assert {k: config[k] for k in expected} == expected
    assert type(layer).from_config(config).get_config() == config


def test_bad_arguments():
    for cls in (layers.AutoContrast, layers.Equalization):
        with pytest.raises(ValueError, match="should be a list of two numbers"):
            cls(value_range=3)
    with pytest.raises(ValueError, match="in the range"):
        layers.Solarization(addition_factor=2)
    with pytest.raises(ValueError, match="in the range"):
        layers.Solarization(threshold_factor=(0.1, 0.2, 0.3))
    with pytest.raises(ValueError, match="bins"):
        layers.Equalization(bins=0)
