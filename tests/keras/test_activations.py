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
