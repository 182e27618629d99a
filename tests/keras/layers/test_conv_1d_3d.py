"""Conv1D (valid, same, causal), Conv3D and 1-D pooling against NumPy loops (and TF 2.21's shapes).

The same programs under TF 2.21 gave the same shapes and values to 4 decimals (valid, same with
stride 2, causal with dilation 2 and with stride 2, Conv3D valid and same, 1-D pooling).
"""

import numpy as np
import pytest

import companion as tf
from companion.keras import layers
from tests.keras.layers.layer_checks import check_layer

RNG = np.random.default_rng(7)
X1 = RNG.random((2, 7, 3)).astype(np.float32)


def _conv1d(x, kernel, bias, stride, dilation, left, right):
    """Cross-correlation over steps with explicit left/right zero padding (NumPy loops)."""
    x = np.pad(x, [(0, 0), (left, right), (0, 0)])
    span = (kernel.shape[0] - 1) * dilation + 1
    steps = (x.shape[1] - span) // stride + 1
    out = np.zeros((x.shape[0], steps, kernel.shape[2]))
    for t in range(steps):
        window = x[:, t * stride: t * stride + span: dilation, :]  # (batch, k, in)
        out[:, t] = np.einsum("bki,kio->bo", window, kernel)
    return out + bias


@pytest.mark.parametrize("padding, stride, dilation, pads", [
    ("valid", 1, 1, (0, 0)),
    ("same", 2, 1, (1, 1)),  # 7 steps, window 3, stride 2: 4 outputs, 2 padded steps split evenly
    ("causal", 1, 2, (4, 0)),
    ("causal", 2, 1, (2, 0)),
])
def test_conv1d_matches_numpy(padding, stride, dilation, pads):
    layer = layers.Conv1D(4, 3, strides=stride, padding=padding, dilation_rate=dilation)
    layer.build(X1.shape)
    kernel, bias = RNG.random((3, 3, 4)).astype(np.float32), RNG.random(4).astype(np.float32)
    layer.set_weights([kernel, bias])
    expected = _conv1d(X1, kernel, bias, stride, dilation, *pads)
    out = layer(X1).numpy()
    np.testing.assert_allclose(out, expected, rtol=1e-5, atol=1e-5)
    assert layer.compute_output_shape(X1.shape) == expected.shape


def test_conv1d_trains_and_a_causal_output_sees_no_future_step():
    check_layer(layers.Conv1D(2, 2, padding="causal"), X1, (2, 7, 2), 2)
    layer = layers.Conv1D(1, 3, padding="causal", kernel_initializer="ones", use_bias=False)
    x = np.zeros((1, 6, 1), np.float32)
    x[0, 4, 0] = 1.0  # an impulse at step 4 reaches outputs 4, 5 only
    np.testing.assert_array_equal(layer(x).numpy()[0, :, 0], [0, 0, 0, 0, 1, 1])
    with pytest.raises(ValueError, match="'causal'"):
        layers.Conv2D(2, 3, padding="causal")


def test_conv3d_matches_numpy_and_counts_params():
    x = RNG.random((1, 4, 5, 6, 2)).astype(np.float32)
    layer = layers.Conv3D(3, 2)
    layer.build(x.shape)
    kernel, bias = RNG.random((2, 2, 2, 2, 3)).astype(np.float32), RNG.random(3).astype(np.float32)
    layer.set_weights([kernel, bias])
    out = layer(x).numpy()
    assert out.shape == (1, 3, 4, 5, 3) and layer.count_params() == 2 * 2 * 2 * 2 * 3 + 3
    d, h, w = 1, 2, 3
    expected = np.einsum("dhwi,dhwio->o", x[0, d:d + 2, h:h + 2, w:w + 2], kernel) + bias
    np.testing.assert_allclose(out[0, d, h, w], expected, rtol=1e-5)


def test_one_dimensional_pooling_matches_numpy():
    np.testing.assert_allclose(layers.MaxPooling1D(2)(X1).numpy(), X1[:, :6].reshape(2, 3, 2, 3).max(2))
    np.testing.assert_allclose(layers.AveragePooling1D(3)(X1).numpy(), X1[:, :6].reshape(2, 2, 3, 3).mean(2),
                               rtol=1e-6)
    same = layers.AveragePooling1D(2, padding="same")(X1).numpy()  # the last window holds one step
    np.testing.assert_allclose(same[:, -1], X1[:, -1], rtol=1e-6)
    np.testing.assert_allclose(layers.GlobalMaxPooling1D()(X1).numpy(), X1.max(1))
    assert layers.GlobalMaxPooling1D(keepdims=True)(X1).shape == (2, 1, 3)
    assert layers.MaxPool1D is layers.MaxPooling1D and layers.GlobalMaxPool1D is layers.GlobalMaxPooling1D


def test_a_sequence_model_of_them_fits():
    model = tf.keras.Sequential([tf.keras.Input((7, 3)), layers.Conv1D(4, 3, activation="relu"),
                                 layers.MaxPooling1D(), layers.GlobalMaxPooling1D(), layers.Dense(1)])
    assert model.count_params() == 3 * 3 * 4 + 4 + 4 + 1  # TF 2.21: 45
    model.compile(optimizer="adam", loss="mse")
    history = model.fit(X1, np.ones((2, 1), np.float32), epochs=3, verbose=0)
    assert len(history.history["loss"]) == 3 and np.isfinite(history.history["loss"]).all()
