"""ConvLSTM1D/2D/3D against a NumPy convolutional LSTM: shapes, states, options, configs, errors."""

import itertools

import numpy as np
import pytest

import companion as tf
from companion.keras import layers

RNG = np.random.default_rng(0)


def np_conv(x, kernel, strides, padding, dilation):
    """Channels-last N-D cross-correlation (TensorFlow's SAME/VALID padding) in float64."""
    rank = x.ndim - 2
    spans = [(k - 1) * d + 1 for k, d in zip(kernel.shape[:rank], dilation)]
    if padding == "same":
        outs = [-(-n // s) for n, s in zip(x.shape[1:-1], strides)]
        pads = [max((o - 1) * s + span - n, 0) for o, s, span, n in zip(outs, strides, spans, x.shape[1:-1])]
        x = np.pad(x, [(0, 0)] + [(p // 2, p - p // 2) for p in pads] + [(0, 0)])
    outs = [(n - span) // s + 1 for n, span, s in zip(x.shape[1:-1], spans, strides)]
    out = np.zeros((x.shape[0], *outs, kernel.shape[-1]))
    for cell in itertools.product(*(range(o) for o in outs)):
        for offs in itertools.product(*(range(k) for k in kernel.shape[:rank])):
            index = tuple(c * s + o * d for c, s, o, d in zip(cell, strides, offs, dilation))
            out[(slice(None), *cell)] += x[(slice(None), *index)] @ kernel[offs]
    return out


def sigmoid(v):
    return 1.0 / (1.0 + np.exp(-v))


def np_conv_lstm(x, kernel, recurrent, bias, strides, padding, dilation, go_backwards=False):
    rank = x.ndim - 3
    steps = range(x.shape[1] - 1, -1, -1) if go_backwards else range(x.shape[1])
    h = c = None
    outputs = []
    for t in steps:
        z = np_conv(x[:, t], kernel, strides, padding, dilation) + bias
        if h is None:
            h = c = np.zeros(z.shape[:-1] + (z.shape[-1] // 4,))
        z = z + np_conv(h, recurrent, (1,) * rank, "same", (1,) * rank)
        i, f, g, o = np.split(z, 4, axis=-1)
        c = sigmoid(f) * c + sigmoid(i) * np.tanh(g)
        h = sigmoid(o) * np.tanh(c)
        outputs.append(h)
    return np.stack(outputs, 1), h, c


CASES = [(layers.ConvLSTM1D, (2, 3, 7, 2), dict(kernel_size=3, dilation_rate=2)),
         (layers.ConvLSTM2D, (2, 3, 5, 6, 3), dict(kernel_size=3, padding="same")),
         (layers.ConvLSTM2D, (2, 3, 5, 6, 3), dict(kernel_size=(2, 3), strides=(2, 1), go_backwards=True)),
         (layers.ConvLSTM3D, (1, 2, 4, 3, 4, 2), dict(kernel_size=2, padding="same"))]


@pytest.mark.parametrize("cls, shape, kwargs", CASES,
                         ids=[f"{c[0].__name__}-{i}" for i, c in enumerate(CASES)])
def test_matches_numpy_with_sequences_and_states(cls, shape, kwargs):
    x = RNG.normal(size=shape).astype(np.float32)
    layer = cls(4, return_sequences=True, return_state=True, bias_initializer="random_normal", **kwargs)
    outputs, h, c = layer(x)
    cell = layer.cell
    rank = len(shape) - 3
    expected = np_conv_lstm(x.astype(np.float64), cell.kernel.numpy(), cell.recurrent_kernel.numpy(),
                            cell.bias.numpy(), layer.strides, layer.padding, layer.dilation_rate,
                            kwargs.get("go_backwards", False))
    for got, want in zip((outputs, h, c), expected):
        np.testing.assert_allclose(np.asarray(got), want, rtol=2e-5, atol=2e-5)
    assert layer.compute_output_shape((None,) + shape[1:]) == (
        (None, shape[1], *outputs.shape[2:]), (None, *h.shape[1:]), (None, *c.shape[1:]))
    assert cell.kernel.shape == layer.kernel_size + (shape[-1], 16) and rank == len(layer.kernel_size)


def test_forget_bias_channels_first_and_no_bias():
    layer = layers.ConvLSTM2D(2, 3)
    layer(np.zeros((1, 2, 4, 4, 1), np.float32))
    np.testing.assert_array_equal(layer.cell.bias.numpy(), [0, 0, 1, 1, 0, 0, 0, 0])
    x = RNG.normal(size=(2, 3, 5, 6, 2)).astype(np.float32)
    last = layers.ConvLSTM2D(3, 3, use_bias=False, kernel_initializer="glorot_uniform")
    out_last = last(x).numpy()
    assert len(last.weights) == 2
    first = layers.ConvLSTM2D(3, 3, use_bias=False, data_format="channels_first")
    first(np.transpose(x, (0, 1, 4, 2, 3)))
    first.set_weights(last.get_weights())
    np.testing.assert_allclose(first(np.transpose(x, (0, 1, 4, 2, 3))).numpy(),
                               np.transpose(out_last, (0, 3, 1, 2)), rtol=1e-5, atol=1e-5)


def test_in_a_model_fit_and_config_round_trip():
    inputs = tf.keras.Input((3, 5, 6, 3))
    model = tf.keras.Model(inputs, layers.Flatten()(layers.ConvLSTM2D(2, 3)(inputs)))
    assert model.output_shape == (None, 24)
    model.compile("sgd", "mse")
    x = RNG.normal(size=(2, 3, 5, 6, 3)).astype(np.float32)
    before = model.get_weights()[0].copy()
    model.fit(x, np.ones((2, 24)), epochs=2, verbose=0)
    assert not np.allclose(model.get_weights()[0], before)
    layer = model.layers[1]
    config = layer.get_config()
    assert "cell" not in config and config["filters"] == 2 and config["kernel_size"] == (3, 3)
    clone = layers.ConvLSTM2D.from_config(config)
    assert clone.get_config() == config
    clone(x)
    clone.set_weights(layer.get_weights())
    np.testing.assert_allclose(clone(x).numpy(), layer(x).numpy(), rtol=1e-6)


def test_masked_steps_keep_the_state():
    x = RNG.normal(size=(2, 3, 4, 2)).astype(np.float32)
    layer = layers.ConvLSTM1D(2, 3, padding="same")
    mask = np.array([[True, True, False], [True, True, True]])
    masked = layer(x, mask=tf.constant(mask)).numpy()
    np.testing.assert_allclose(masked[0], layer(x[:, :2]).numpy()[0], rtol=1e-6)


def test_bad_arguments():
    with pytest.raises(NotImplementedError, match="dropout"):
        layers.ConvLSTM2D(2, 3, dropout=0.1)
    with pytest.raises(ValueError, match="not compatible with `dilation_rate > 1`"):
        layers.ConvLSTM2D(2, 3, strides=2, dilation_rate=2)
    with pytest.raises(ValueError, match="filters"):
        layers.ConvLSTM2D(0, 3)
    with pytest.raises(ValueError, match="expected ndim=6, found ndim=5"):
        layers.ConvLSTM3D(2, 3)(np.zeros((1, 2, 4, 4, 1), np.float32))
