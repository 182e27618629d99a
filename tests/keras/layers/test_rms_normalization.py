"""RMSNormalization against NumPy: axes, epsilon, scale, dtypes, errors and config round trips."""

import numpy as np
import pytest

import companion as tf
from companion.keras import layers
from tests.keras.layers.layer_checks import check_layer

X = np.random.default_rng(0).normal(size=(3, 4, 5)).astype(np.float32)


def np_rms(x, axes, epsilon, scale=1.0):
    x = x.astype(np.float64)
    return x / np.sqrt(np.mean(x * x, axis=axes, keepdims=True) + epsilon) * scale


def test_last_axis_matches_numpy_and_passes_the_layer_checks():
    layer = layers.RMSNormalization()
    check_layer(layer, X, X.shape, 1, expected=np_rms(X, (-1,), 1e-6), rtol=1e-5)
    assert layer.scale.shape == (5,)
    assert layer.get_config()["axis"] == [-1]  # Keras keeps the axes as a list once built


def test_several_axes_a_learned_scale_and_epsilon():
    layer = layers.RMSNormalization(axis=[2, 1], epsilon=0.5)
    layer(X)
    scale = np.random.default_rng(1).normal(size=(4, 5)).astype(np.float32)
    layer.scale.assign(scale)
    np.testing.assert_allclose(layer(X).numpy(), np_rms(X, (1, 2), 0.5, scale), rtol=1e-5, atol=1e-6)
    assert layer.get_config()["axis"] == [1, 2]


def test_dtypes_follow_keras():
    assert layers.RMSNormalization()(X.astype(np.float64)).dtype == tf.float32  # cast to the layer dtype
    mixed = layers.RMSNormalization(dtype="mixed_float16")
    out = mixed(X)
    assert out.dtype == tf.float16 and mixed.scale.dtype == tf.float32
    np.testing.assert_allclose(out.numpy(), np_rms(X, (-1,), 1e-6), rtol=2e-3, atol=2e-3)
    half = layers.RMSNormalization(dtype="float16")
    assert half(X).dtype == tf.float16


def test_in_a_model_traced_and_trained():
    inputs = tf.keras.Input((4, 5))
    model = tf.keras.Model(inputs, layers.RMSNormalization()(inputs))
    assert model.output_shape == (None, 4, 5)
    model.compile("sgd", "mse")
    model.fit(X, 2 * X, epochs=2, verbose=0)
    assert not np.allclose(model.layers[-1].scale.numpy(), 1.0)
    traced = tf.function(lambda x: model(x))
    np.testing.assert_allclose(traced(X).numpy(), model(X).numpy(), rtol=1e-6)


def test_bad_arguments():
    with pytest.raises(TypeError, match="axis"):
        layers.RMSNormalization(axis="last")
    with pytest.raises(TypeError, match="epsilon"):
        layers.RMSNormalization(epsilon="small")
    with pytest.raises(IndexError, match="out of bounds"):
        layers.RMSNormalization(axis=3)(X)
    with pytest.raises(ValueError, match="out of bounds"):
        layers.RMSNormalization(axis=-4).compute_output_shape((3, 4, 5))
