"""DepthwiseConv and SeparableConv layers against a NumPy loop, and nn.separable_conv2d."""

import numpy as np
import pytest

import companion as tf

L = tf.keras.layers
X = np.random.default_rng(3).normal(size=(2, 6, 5, 3)).astype(np.float32)


def _depthwise(x, kernel, stride=1):
    """Valid depthwise cross-correlation: output channel c * m + j is input channel c through filter j."""
    kh, kw, channels, multiplier = kernel.shape
    rows = (x.shape[1] - kh) // stride + 1
    cols = (x.shape[2] - kw) // stride + 1
    out = np.zeros((x.shape[0], rows, cols, channels * multiplier), np.float64)
    for i in range(rows):
        for j in range(cols):
            patch = x[:, i * stride:i * stride + kh, j * stride:j * stride + kw, :]
            out[:, i, j] = np.einsum("bhwc,hwcm->bcm", patch, kernel).reshape(x.shape[0], -1)
    return out


def test_depthwise_conv2d_matches_numpy():
    layer = L.DepthwiseConv2D(3, depth_multiplier=2, strides=2, bias_initializer="random_normal")
    out = layer(X).numpy()
    assert layer.kernel.shape == (3, 3, 3, 2) and out.shape == (2, 2, 2, 6)
    expected = _depthwise(X, layer.kernel.numpy(), stride=2) + layer.bias.numpy()
    np.testing.assert_allclose(out, expected, rtol=1e-5, atol=1e-5)
    assert layer.compute_output_shape(X.shape) == out.shape


def test_separable_conv2d_is_depthwise_then_pointwise():
    layer = L.SeparableConv2D(4, (2, 3), depth_multiplier=2, activation="relu")
    out = layer(X).numpy()
    depthwise = _depthwise(X, layer.depthwise_kernel.numpy())
    expected = np.maximum(depthwise @ layer.pointwise_kernel.numpy()[0, 0] + layer.bias.numpy(), 0)
    np.testing.assert_allclose(out, expected, rtol=1e-5, atol=1e-5)
    same = tf.nn.separable_conv2d(X, layer.depthwise_kernel, layer.pointwise_kernel, strides=[1, 1, 1, 1],
                                  padding="VALID").numpy()
    np.testing.assert_allclose(np.maximum(same + layer.bias.numpy(), 0), out, rtol=1e-5, atol=1e-5)


def test_1d_variants_configs_and_training():
    seq = X[:, :, 0, :]
    depthwise = L.DepthwiseConv1D(2, depth_multiplier=3, padding="same")
    assert depthwise(seq).shape == (2, 6, 9)
    separable = L.SeparableConv1D(5, 3)
    assert separable(seq).shape == (2, 4, 5) and separable.pointwise_kernel.shape == (1, 3, 5)
    again = L.SeparableConv2D.from_config(L.SeparableConv2D(4, 3, depth_multiplier=2).get_config())
    assert (again.filters, again.kernel_size, again.depth_multiplier) == (4, (3, 3), 2)
    model = tf.keras.Sequential([L.Input((6, 5, 3)), L.SeparableConv2D(4, 3), L.Flatten(), L.Dense(1)])
    model.compile("adam", "mse")
    y = X.sum(axis=(1, 2, 3))[:, None]
    losses = model.fit(X, y, epochs=20, verbose=0).history["loss"]
    assert losses[-1] < losses[0]
    with pytest.raises(ValueError, match="expected min_ndim=4, found ndim=3"):
        L.DepthwiseConv2D(3)(np.ones((2, 5, 5), np.float32))
