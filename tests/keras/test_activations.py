"""Keras activations against NumPy formulas."""

import math

import numpy as np
import pytest

import companion as tf
from companion.keras import activations

X = np.array([-3.0, -1.0, -0.25, 0.0, 0.5, 2.0], np.float32)
_ERF = np.vectorize(math.erf)
SELU_ALPHA, SELU_SCALE = 1.6732632423543772, 1.0507009873554805


def _softmax(x):
    e = np.exp(x - x.max())
    return e / e.sum()


ORACLES = {
    "relu": lambda x: np.maximum(x, 0),
    "sigmoid": lambda x: 1 / (1 + np.exp(-x)),
    "softmax": _softmax,
    "tanh": np.tanh,
    "elu": lambda x: np.where(x > 0, x, np.exp(x) - 1),
    "selu": lambda x: SELU_SCALE * np.where(x > 0, x, SELU_ALPHA * (np.exp(x) - 1)),
    "softplus": lambda x: np.log1p(np.exp(x)),
    "swish": lambda x: x / (1 + np.exp(-x)),
    "silu": lambda x: x / (1 + np.exp(-x)),
    "gelu": lambda x: 0.5 * x * (1 + _ERF(x / np.sqrt(2))),
    "leaky_relu": lambda x: np.where(x > 0, x, 0.2 * x),
    "linear": lambda x: x,
}


@pytest.mark.parametrize("name", sorted(ORACLES))
def test_activation_matches_numpy(name):
    fn = activations.get(name)
    np.testing.assert_allclose(np.asarray(fn(tf.constant(X))), ORACLES[name](X), rtol=1e-5, atol=1e-6)
    assert getattr(activations, name) is fn


def test_relu_options_and_elu_alpha():
    x = tf.constant(X)
    np.testing.assert_allclose(np.asarray(activations.relu(x, alpha=0.1, max_value=1.0)),
                               np.minimum(np.where(X > 0, X, 0.1 * X), 1.0), rtol=1e-6)
    np.testing.assert_allclose(np.asarray(activations.relu(x, threshold=0.25)),
                               np.where(X >= 0.25, X, 0.0), rtol=1e-6)
    np.testing.assert_allclose(np.asarray(activations.elu(x, alpha=2.0)),
                               np.where(X > 0, X, 2.0 * (np.exp(X) - 1)), rtol=1e-5)


def test_get_none_callable_and_unknown():
    assert activations.get(None) is activations.linear
    assert activations.get(np.tanh) is np.tanh
    assert activations.serialize(activations.relu) == "relu"
    with pytest.raises(ValueError, match="Unknown activation function: 'nope'"):
        activations.get("nope")


_X = np.array([-3.0, -1.5, -0.5, 0.0, 0.3, 0.7, 1.5, 4.0, 7.0], np.float32)
_SOFTPLUS = np.log1p(np.exp(_X))


@pytest.mark.parametrize("name, expected", [
    ("relu6", np.clip(_X, 0, 6)),
    ("hard_sigmoid", np.clip(_X + 3, 0, 6) / 6),
    ("hard_swish", _X * np.clip(_X + 3, 0, 6) / 6),
    ("hard_tanh", np.clip(_X, -1, 1)),
    ("mish", _X * np.tanh(_SOFTPLUS)),
    ("celu", np.maximum(_X, 0) + np.expm1(np.minimum(_X, 0))),
    ("sparse_plus", np.where(_X <= -1, 0, np.where(_X >= 1, _X, (_X + 1) ** 2 / 4))),
    ("sparse_sigmoid", np.clip((_X + 1) / 2, 0, 1)),
    ("squareplus", (_X + np.sqrt(_X ** 2 + 4)) / 2),
    ("soft_shrink", np.sign(_X) * np.maximum(np.abs(_X) - 0.5, 0)),
    ("hard_shrink", np.where(np.abs(_X) > 0.5, _X, 0)),
    ("tanh_shrink", _X - np.tanh(_X)),
    ("softsign", _X / (1 + np.abs(_X))),
    ("exponential", np.exp(_X)),
    ("log_sigmoid", -np.log1p(np.exp(-_X))),
    ("log_softmax", _X - np.log(np.exp(_X).sum())),
])
def test_keras3_activations_match_numpy(name, expected):
    np.testing.assert_allclose(tf.keras.activations.get(name)(tf.constant(_X)).numpy(), expected, rtol=1e-5,
                               atol=1e-6)


def test_glu_threshold_and_sparsemax():
    x = np.arange(8, dtype=np.float32).reshape(2, 4) - 3
    gated = x[:, :2] / (1 + np.exp(-x[:, 2:]))
    np.testing.assert_allclose(tf.keras.activations.glu(x).numpy(), gated, rtol=1e-6)
    np.testing.assert_array_equal(tf.keras.activations.threshold(_X, 0.5, -1.0).numpy(),
                                  np.where(_X > 0.5, _X, -1.0))
    # Keras 3's threshold sums the support's cumulative sums (TF 2.21 prints these numbers)
    np.testing.assert_allclose(tf.keras.activations.sparsemax([[1.0, 0.5, 0.0], [0.1, 0.2, 3.0]]).numpy(),
                               [[0.25, 0.0, 0.0], [0.0, 0.0, 1.0]], atol=1e-6)


def test_celu_gradient_at_zero_is_twos_as_tf():
    x = tf.constant([-1.0, 0.0, 1.0])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.reduce_sum(tf.keras.activations.celu(x))
    np.testing.assert_allclose(tape.gradient(y, x).numpy(), [np.exp(-1.0), 2.0, 1.0], rtol=1e-6)


def test_relu_takes_keras3_negative_slope_and_keras2_alpha():
    x = tf.constant([-2.0, 3.0])
    for kwargs in ({"negative_slope": 0.1}, {"alpha": 0.1}):
        np.testing.assert_allclose(tf.keras.activations.relu(x, **kwargs).numpy(), [-0.2, 3.0], rtol=1e-6)
    np.testing.assert_allclose(tf.keras.activations.leaky_relu(x, negative_slope=0.5).numpy(), [-1.0, 3.0])
