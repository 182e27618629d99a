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
from companion.keras.activations._more_activations import (
    celu,
    exponential,
    glu,
    hard_shrink,
    hard_sigmoid,
    hard_silu,
    hard_swish,
    hard_tanh,
    log_sigmoid,
    log_softmax,
    mish,
    relu6,
    soft_shrink,
    softsign,
    sparse_plus,
    sparse_sigmoid,
    sparsemax,
    squareplus,
    tanh_shrink,
    threshold,
)

__all__ = [
    "celu", "deserialize", "elu", "exponential", "gelu", "get", "glu", "hard_shrink", "hard_sigmoid",
    "hard_silu", "hard_swish", "hard_tanh", "leaky_relu", "linear", "log_sigmoid", "log_softmax", "mish",
    "relu", "relu6", "selu", "serialize", "sigmoid", "silu", "soft_shrink", "softmax", "softplus", "softsign",
    "sparse_plus", "sparse_sigmoid", "sparsemax", "squareplus", "swish", "tanh", "tanh_shrink", "threshold",
]
