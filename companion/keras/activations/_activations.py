"""The Keras activation functions, thin wrappers over `companion.nn` and `companion.math` ops."""

from companion._core._convert import as_input
from companion._ops import _math
from companion._ops import _nn_activations as _nn
from companion._ops._select import where
from companion.keras._keras_logits import set_keras_logits


def relu(x, negative_slope=0.0, max_value=None, threshold=0.0, alpha=None):
    """Rectified linear unit: ``max(x, 0)``, with Keras's optional slope, cap and threshold
    (``alpha`` is Keras 2's name of ``negative_slope``).

    Example:
        >>> import companion as tf
        >>> tf.keras.activations.relu(tf.constant([-1.0, 2.0])).numpy()
        array([0., 2.], dtype=float32)
    """
    x = as_input(x)
    alpha = negative_slope if alpha is None else alpha
    if alpha == 0.0 and max_value is None and threshold == 0.0:
        return _nn.relu(x)
    out = where(x >= threshold, x, alpha * (x - threshold)) if threshold else None
    if out is None:
        out = _nn.relu(x) - alpha * _nn.relu(-x) if alpha else _nn.relu(x)
    if max_value is not None:
        out = _math.minimum(out, max_value)
    return out


def sigmoid(x):
    """``1 / (1 + exp(-x))``; the output keeps ``x`` as its logits for the cross-entropies (Keras 3)."""
    return set_keras_logits(_math.sigmoid(x), x)


def tanh(x):
    """Hyperbolic tangent."""
    return _math.tanh(x)


def softmax(x, axis=-1):
    """``exp(x) / sum(exp(x))`` along ``axis`` (the last by default); the output keeps ``x`` as its
    logits for the cross-entropies (Keras 3)."""
    return set_keras_logits(_nn.softmax(x, axis=axis), x)


def elu(x, alpha=1.0):
    """``x`` if ``x > 0`` else ``alpha * (exp(x) - 1)``."""
    out = _nn.elu(x)
    return out if alpha == 1.0 else where(as_input(x) > 0, out, alpha * out)


def selu(x):
    """Scaled ELU with the self-normalizing constants of Klambauer et al. (2017)."""
    return _nn.selu(x)


def softplus(x):
    """``log(exp(x) + 1)``."""
    return _math.softplus(x)


def swish(x):
    """``x * sigmoid(x)`` (also called SiLU)."""
    return _nn.silu(x)


silu = swish


def gelu(x, approximate=False):
    """Gaussian error linear unit, exact (erf) or the tanh approximation."""
    return _nn.gelu(x, approximate=approximate)


def leaky_relu(x, negative_slope=0.2, alpha=None):
    """``x`` if ``x > 0`` else ``negative_slope * x`` (``alpha``: Keras 2's name for it)."""
    return _nn.leaky_relu(x, alpha=negative_slope if alpha is None else alpha)


def linear(x):
    """The identity, returned unchanged."""
    return x
