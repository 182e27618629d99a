"""``companion.keras.activations``: Keras's activation functions and `get`."""

from companion.keras.activations._activations import (
    elu,
    gelu,
    leaky_relu,
    linear,
    relu,
    selu,
    sigmoid,
    silu,
    softmax,
    softplus,
    swish,
    tanh,
)
from companion.keras.activations._get import deserialize, get, serialize

__all__ = [
    "deserialize", "elu", "gelu", "get", "leaky_relu", "linear", "relu", "selu", "serialize",
    "sigmoid", "silu", "softmax", "softplus", "swish", "tanh",
]
