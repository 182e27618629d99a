"""Conv2D and the 2-D pooling layers against NumPy loops, plus shapes, configs and errors."""

import math

import numpy as np
import pytest

from companion.keras import layers
from tests.keras.layers.layer_checks import check_layer

RNG = np.random.default_rng(0)
X = RNG.normal(size=(2, 5, 6, 4)).astype(np.float32)


# -- NumPy oracles -------------------------------------------------------------------------------

def _same_pads(size, window, stride):
    out = math.ceil(size / stride)
    total = max((out - 1) * stride + window - size, 0)
    return total // 2, total - total // 2


def _windows(x, window, strides, padding, dilation=(1, 1), fill=0.0):
    """Yields (i, j, patch) for each output position; patch is (batch, rows, cols, channels)."""
    span = [(k - 1) * d + 1 for k, d in zip(window, dilation)]
    if padding == "same":
        pads = [_same_pads(n, s, st) for n, s, st in zip(x.shape[1:3], span, strides)]
        x = np.pad(x, [(0, 0), *pads, (0, 0)], constant_values=fill)
    rows, cols = [(n - s) // st + 1 for n, s, st in zip(x.shape[1:3], span, strides)]
    for i in range(rows):
        for j in range(cols):
            r, c = i * strides[0], j * strides[1]
            yield i, j, x[:, r:r + span[0]:dilation[0], c:c + span[1]:dilation[1], :]


def np_conv2d(x, kernel, strides=(1, 1), padding="valid", dilation=(1, 1), groups=1):
    """NHWC input, HWIO kernel; the channels split into ``groups`` independent convolutions."""
    positions = list(_windows(x.astype(np.float64), kernel.shape[:2], strides, padding, dilation))
    rows, cols = positions[-1][0] + 1, positions[-1][1] + 1
    out = np.zeros((x.shape[0], rows, cols, kernel.shape[-1]))
    cin, fout = kernel.shape[2], kernel.shape[3] // groups
    for i, j, patch in positions:
        for g in range(groups):
            out[:, i, j, g * fout:(g + 1) * fout] = np.einsum(
                "nhwc,hwcf->nf", patch[..., g * cin:(g + 1) * cin], kernel[..., g * fout:(g + 1) * fout])
    return out


def np_pool(x, reduce, window, strides, padding):
    """Max (``np.nanmax``) or average (``np.nanmean``) pooling; padding is NaN, so never counted."""
    positions = list(_windows(x.astype(np.float64), window, strides, padding, fill=np.nan))
    out = np.zeros((x.shape[0], positions[-1][0] + 1, positions[-1][1] + 1, x.shape[3]))
    for i, j, patch in positions:
        out[:, i, j, :] = reduce(patch, axis=(1, 2))
    return out


# -- Conv2D --------------------------------------------------------------------------------------

@pytest.mark.parametrize("kernel_size, strides, padding, dilation, groups, out_hw", [
    ((2, 3), (2, 2), "same", (1, 1), 1, (3, 3)),
    ((3, 2), (2, 1), "VALID", (1, 1), 2, (2, 5)),
    ((2, 3), (1, 1), "Same", (2, 1), 4, (5, 6)),
])
def test_conv2d_matches_numpy(kernel_size, strides, padding, dilation, groups, out_hw):
    layer = layers.Conv2D(4, kernel_size, strides=strides, padding=padding, dilation_rate=dilation,
                          groups=groups, bias_initializer="glorot_uniform")
    layer(X)
    assert layer.kernel.shape == kernel_size + (4 // groups, 4)
    expected = np_conv2d(X, layer.kernel.numpy(), strides, padding.lower(), dilation, groups)
    expected += layer.bias.numpy()
    check_layer(layer, X, (2, *out_hw, 4), 2, expected=expected, rtol=1e-5)
    assert layer.compute_output_shape(X.shape) == (2, *out_hw, 4)


def test_conv2d_int_arguments_activation_and_no_bias():
    with pytest.warns(UserWarning, match="Do not pass an `input_shape`"):
        layer = layers.Conv2D(3, 2, strides=2, activation="relu", use_bias=False, input_shape=(5, 6, 4))
    out = check_layer(layer, X, (2, 2, 3, 3), 1)
    assert layer.kernel_size == (2, 2) and layer.strides == (2, 2)
    np.testing.assert_allclose(out, np.maximum(np_conv2d(X, layer.kernel.numpy(), (2, 2)), 0),
                               rtol=1e-5, atol=1e-5)
    assert "batch_input_shape" not in layer.get_config()  # Keras 3 keeps no input shape in a layer's config


def test_conv2d_channels_first_matches_transposed_numpy():
    layer = layers.Conv2D(2, 3, padding="same", data_format="channels_first")
    x = np.transpose(X, (0, 3, 1, 2))
    out = check_layer(layer, x, (2, 2, 5, 6), 2, gradients=False)
    expected = np_conv2d(X, layer.kernel.numpy(), padding="same") + layer.bias.numpy()
    np.testing.assert_allclose(out, np.transpose(expected, (0, 3, 1, 2)), rtol=1e-5, atol=1e-5)
    assert layer.compute_output_shape((None, 4, 7, None)) == (None, 2, 7, None)


def test_conv2d_compute_output_shape_with_unknown_dims():
    layer = layers.Conv2D(8, (3, 5), strides=(2, 3), padding="valid")
    assert layer.compute_output_shape((None, 9, 11, 3)) == (None, 4, 3, 8)
    assert layer.compute_output_shape((None, None, 11, 3)) == (None, None, 3, 8)
    same = layers.Conv2D(8, 3, strides=2, padding="same")
    assert same.compute_output_shape((None, 9, 10, 3)) == (None, 5, 5, 8)
    dilated = layers.Conv2D(1, 3, dilation_rate=2)
    assert dilated.compute_output_shape((4, 9, 9, 1)) == (4, 5, 5, 1)


def test_conv2d_errors():
    with pytest.raises(ValueError, match="filters=0"):
        layers.Conv2D(0, 3)
    with pytest.raises(ValueError, match="padding='full'"):
        layers.Conv2D(2, 3, padding="full")
    with pytest.raises(ValueError, match="kernel_size=\\(3, 0\\)"):
        layers.Conv2D(2, (3, 0))
    with pytest.raises(ValueError, match="groups=2"):
        layers.Conv2D(3, 3, groups=2)
    with pytest.raises(ValueError, match="dilation_rate=2"):
        layers.Conv2D(2, 3, strides=2, dilation_rate=2)
    with pytest.raises(ValueError, match="data_format='NHWC'"):
        layers.Conv2D(2, 3, data_format="NHWC")
    with pytest.raises(ValueError, match="divisible"):
        layers.Conv2D(2, 3, groups=2)(np.zeros((1, 4, 4, 3), np.float32))
    layer = layers.Conv2D(2, 3, name="my_conv")
    layer(X)
    with pytest.raises(ValueError, match="'my_conv'.*expected min_ndim=4, found ndim=3"):
        layer(X[0])
    with pytest.raises(ValueError, match="'my_conv'.*axis -1"):
        layer(X[..., :3])


# -- pooling -------------------------------------------------------------------------------------

@pytest.mark.parametrize("pool_size, strides, padding, out_hw", [
    ((2, 2), None, "valid", (2, 3)),
    ((2, 2), None, "same", (3, 3)),
    ((3, 2), (1, 2), "valid", (3, 3)),
    ((3, 3), (2, 2), "SAME", (3, 3)),
])
def test_pooling_matches_numpy(pool_size, strides, padding, out_hw):
    steps = pool_size if strides is None else strides
    for layer_class, reduce in ((layers.MaxPooling2D, np.nanmax), (layers.AveragePooling2D, np.nanmean)):
        layer = layer_class(pool_size, strides=strides, padding=padding)
        expected = np_pool(X, reduce, pool_size, steps, padding.lower())
        check_layer(layer, X, (2, *out_hw, 4), 0, expected=expected, rtol=1e-5)
        assert layer.compute_output_shape((None,) + X.shape[1:]) == (None, *out_hw, 4)


def test_pooling_defaults_aliases_and_channels_first():
    assert layers.MaxPool2D is layers.MaxPooling2D and layers.AvgPool2D is layers.AveragePooling2D
    assert layers.GlobalAvgPool2D is layers.GlobalAveragePooling2D
    assert layers.GlobalMaxPool2D is layers.GlobalMaxPooling2D
    layer = layers.MaxPooling2D(data_format="channels_first")
    assert layer.pool_size == (2, 2) and layer.strides == (2, 2)
    out = layer(np.transpose(X, (0, 3, 1, 2))).numpy()
    expected = np_pool(X, np.nanmax, (2, 2), (2, 2), "valid")
    np.testing.assert_allclose(out, np.transpose(expected, (0, 3, 1, 2)), rtol=1e-6)
    assert layer.compute_output_shape((None, 3, 7, None)) == (None, 3, 3, None)


def test_global_pooling_matches_numpy():
    check_layer(layers.GlobalAveragePooling2D(), X, (2, 4), 0, expected=X.mean(axis=(1, 2)), rtol=1e-5)
    check_layer(layers.GlobalMaxPooling2D(keepdims=True), X, (2, 1, 1, 4), 0,
                expected=X.max(axis=(1, 2), keepdims=True))
    first = layers.GlobalAveragePooling2D(data_format="channels_first")
    np.testing.assert_allclose(first(np.transpose(X, (0, 3, 1, 2))).numpy(), X.mean(axis=(1, 2)),
                               rtol=1e-5)
    assert layers.GlobalMaxPooling2D().compute_output_shape((None, 5, 6, 4)) == (None, 4)
    assert first.compute_output_shape((None, 4, 5, 6)) == (None, 4)
    assert layers.GlobalAvgPool2D(keepdims=True).compute_output_shape((None, 5, 6, 4)) == (None, 1, 1, 4)


def test_pooling_errors():
    with pytest.raises(ValueError, match="pool_size=0"):
        layers.MaxPooling2D(0)
    with pytest.raises(ValueError, match="padding='causal'"):
        layers.AveragePooling2D(2, padding="causal")
    with pytest.raises(ValueError, match="strides=\\(1, 2, 3\\)"):
        layers.MaxPooling2D(strides=(1, 2, 3))
    with pytest.raises(ValueError, match="ndim=4"):
        layers.GlobalMaxPooling2D()(X[0])
