"""3-D pooling/padding/cropping/upsampling layers against NumPy, and ActivityRegularization,
UnitNormalization, ThresholdedReLU and AlphaDropout against their formulas."""

import numpy as np
import pytest

import companion as tf

L = tf.keras.layers
V = np.random.default_rng(0).normal(size=(2, 4, 6, 4, 3)).astype(np.float32)


def test_3d_pooling_matches_numpy_windows():
    blocks = V.reshape(2, 2, 2, 3, 2, 2, 2, 3)
    np.testing.assert_allclose(L.MaxPooling3D()(V).numpy(), blocks.max(axis=(2, 4, 6)), rtol=1e-6)
    np.testing.assert_allclose(L.AveragePooling3D(2)(V).numpy(), blocks.mean(axis=(2, 4, 6)), rtol=1e-5)
    np.testing.assert_allclose(L.GlobalAveragePooling3D()(V).numpy(), V.mean(axis=(1, 2, 3)), rtol=1e-5)
    np.testing.assert_allclose(L.GlobalMaxPooling3D(keepdims=True)(V).numpy(),
                               V.max(axis=(1, 2, 3), keepdims=True))
    first = np.moveaxis(V, -1, 1)
    np.testing.assert_allclose(L.GlobalMaxPool3D(data_format="channels_first")(first).numpy(),
                               first.max(axis=(2, 3, 4)))
    assert L.MaxPool3D is L.MaxPooling3D and L.GlobalAvgPool3D is L.GlobalAveragePooling3D


def test_3d_padding_cropping_and_upsampling_match_numpy():
    pads = ((1, 0), (0, 2), (1, 1))
    np.testing.assert_array_equal(L.ZeroPadding3D(pads)(V).numpy(), np.pad(V, ((0, 0), *pads, (0, 0))))
    np.testing.assert_array_equal(L.Cropping3D(((1, 0), (2, 1), (0, 1)))(V).numpy(), V[:, 1:, 2:-1, :-1])
    np.testing.assert_array_equal(L.UpSampling3D((1, 2, 3))(V).numpy(),
                                  V.repeat(2, axis=2).repeat(3, axis=3))
    assert L.ZeroPadding3D(2).compute_output_shape((None, 4, 6, 4, 3)) == (None, 8, 10, 8, 3)
    with pytest.raises(ValueError, match="three"):
        L.Cropping3D((1, 2))


def test_activity_regularization_adds_the_penalty_per_example():
    x = np.array([[1.0, -2.0], [3.0, 0.5]], np.float32)
    layer = L.ActivityRegularization(l1=0.5, l2=0.1)
    np.testing.assert_array_equal(layer(x).numpy(), x)
    expected = (0.5 * np.abs(x).sum() + 0.1 * np.square(x).sum()) / 2  # Keras 3 divides by the batch
    assert float(layer.losses[0]) == pytest.approx(expected, rel=1e-6)
    assert L.ActivityRegularization.from_config(layer.get_config()).l1 == 0.5


def test_unit_normalization_and_thresholded_relu():
    x = np.array([[3.0, 4.0], [1.0, -1.0]], np.float32)
    np.testing.assert_allclose(L.UnitNormalization()(x).numpy(), x / np.linalg.norm(x, axis=1, keepdims=True),
                               rtol=1e-6)
    np.testing.assert_allclose(L.UnitNormalization(axis=[0, 1])(x).numpy(), x / np.linalg.norm(x), rtol=1e-6)
    np.testing.assert_array_equal(L.UnitNormalization()(np.zeros((1, 2), np.float32)).numpy(), 0)
    np.testing.assert_array_equal(L.ThresholdedReLU(theta=2.0)(x).numpy(), np.where(x > 2.0, x, 0))


def test_alpha_dropout_keeps_a_selu_networks_mean_and_variance():
    layer = L.AlphaDropout(0.2, seed=3)
    np.testing.assert_array_equal(layer(V).numpy(), V)  # not training: the identity
    selu = tf.keras.activations.selu(tf.random.normal([200000], seed=1)).numpy()  # mean 0, variance 1
    dropped = layer(selu, training=True).numpy()
    assert abs(dropped.mean()) < 0.02 and abs(dropped.var() - 1) < 0.03
    alpha_p = -1.6732632423543772 * 1.0507009873554805
    assert np.isclose(dropped, ((0.8 * (1 + 0.2 * alpha_p ** 2)) ** -0.5) * (alpha_p - alpha_p * 0.2),
                      atol=1e-5).mean() == pytest.approx(0.2, abs=0.01)  # the dropped ones: one value


def test_spatial_dropout_3d_drops_whole_channels_and_aliases():
    y = L.SpatialDropout3D(0.5, seed=1)(np.ones((2, 3, 3, 3, 4), np.float32), training=True).numpy()
    assert (y == y[:, :1, :1, :1, :]).all() and {0.0, 2.0} >= set(np.unique(y).tolist())
    assert L.Convolution2D is L.Conv2D and L.Convolution3DTranspose is L.Conv3DTranspose
