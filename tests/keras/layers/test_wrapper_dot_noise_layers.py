"""TimeDistributed, Dot (batch dot products), GaussianNoise/GaussianDropout and Identity."""

import numpy as np
import pytest

import companion as tf

L = tf.keras.layers
RNG = np.random.default_rng(1)


def test_dot_is_a_batch_dot_product():
    a, b = RNG.normal(size=(2, 3)).astype(np.float32), RNG.normal(size=(2, 3)).astype(np.float32)
    np.testing.assert_allclose(L.Dot(axes=1)([a, b]).numpy(), np.sum(a * b, 1, keepdims=True), rtol=1e-5)
    unit = lambda v: v / np.linalg.norm(v, axis=1, keepdims=True)  # noqa: E731
    np.testing.assert_allclose(L.Dot(axes=1, normalize=True)([a, b]).numpy(),
                               np.sum(unit(a) * unit(b), 1, keepdims=True), rtol=1e-5)
    s1, s2 = RNG.normal(size=(2, 4, 3)).astype(np.float32), RNG.normal(size=(2, 5, 3)).astype(np.float32)
    np.testing.assert_allclose(L.Dot(axes=(2, 2))([s1, s2]).numpy(), np.einsum("bic,bjc->bij", s1, s2),
                               rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(L.dot([s1, s1], axes=(1, 1)).numpy(), np.einsum("bti,btj->bij", s1, s1),
                               rtol=1e-5, atol=1e-5)
    inputs = [tf.keras.Input((4, 3)), tf.keras.Input((5, 3))]
    assert tuple(tf.keras.Model(inputs, L.Dot(axes=2)(inputs)).output.shape) == (None, 4, 5)
    with pytest.raises(ValueError, match="different sizes"):
        L.Dot(axes=1)([a, s1[:, 0, :2]])


def test_time_distributed_applies_one_layer_to_every_step():
    x = RNG.normal(size=(2, 4, 3)).astype(np.float32)
    layer = L.TimeDistributed(L.Dense(2))
    y = layer(x).numpy()
    kernel, bias = (w.numpy() for w in layer.weights)
    np.testing.assert_allclose(y, x @ kernel + bias, rtol=1e-5, atol=1e-6)
    model = tf.keras.Sequential([tf.keras.Input((6, 8, 8, 1)), L.TimeDistributed(L.Conv2D(2, 3)),
                                 L.TimeDistributed(L.Flatten()), L.LSTM(3)])
    shapes = [tuple(layer.output.shape) for layer in model.layers]
    assert shapes == [(None, 6, 6, 6, 2), (None, 6, 72), (None, 3)]
    assert model.count_params() == (9 * 2 + 2) + 4 * (72 * 3 + 3 * 3 + 3)
    clone = L.TimeDistributed.from_config(layer.get_config())
    assert type(clone.layer) is L.Dense and clone.layer.units == 2
    model.compile(optimizer="adam", loss="mse")
    history = model.fit(RNG.normal(size=(8, 6, 8, 8, 1)), RNG.normal(size=(8, 3)), epochs=2, verbose=0)
    assert np.isfinite(history.history["loss"]).all()


def test_gaussian_noise_layers_only_while_training():
    x = np.zeros((20000,), np.float32)
    assert np.array_equal(L.GaussianNoise(0.5)(x).numpy(), x)
    noisy = L.GaussianNoise(0.5, seed=2)(x, training=True).numpy()
    assert abs(noisy.std() - 0.5) < 0.02 and abs(noisy.mean()) < 0.02
    ones = np.ones_like(x)
    assert np.array_equal(L.GaussianDropout(0.5)(ones).numpy(), ones)
    dropped = L.GaussianDropout(0.5, seed=2)(ones, training=True).numpy()
    assert abs(dropped.std() - 1.0) < 0.03 and abs(dropped.mean() - 1.0) < 0.03  # variance rate/(1-rate)
    with pytest.raises(ValueError, match="rate"):
        L.GaussianDropout(1.0)
    assert np.array_equal(L.Identity()(x).numpy(), x)
