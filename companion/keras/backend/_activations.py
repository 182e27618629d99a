"""Backend activations: relu (leaky, capped, thresholded), elu, sigmoids, softmax, softplus, softsign."""

from companion import convert_to_tensor, where
from companion import math as _math
from companion import nn as _nn


def relu(x, alpha=0.0, max_value=None, threshold=0.0):
    """Keras's rectified linear unit, with a leak, a cap and a threshold.

    ``x`` for ``threshold < x < max_value``, ``max_value`` above the cap, and
    ``alpha * (x - threshold)`` at or below ``threshold`` (0 when ``alpha`` is 0).

    Args:
        x: a tensor (or anything convertible to one).
        alpha: the slope below ``threshold``.
        max_value: the cap (None: no cap).
        threshold: values at or below it are "off".

    Example:
        >>> import companion as tf
        >>> x = tf.constant([-2.0, 0.5, 1.5, 8.0])
        >>> tf.keras.backend.relu(x).numpy()
        array([0. , 0.5, 1.5, 8. ], dtype=float32)
        >>> tf.keras.backend.relu(x, alpha=0.1, max_value=6.0, threshold=1.0).numpy()
        array([-0.3 , -0.05,  1.5 ,  6.  ], dtype=float32)
    """
    x = convert_to_tensor(x)
    if alpha != 0.0:
        if max_value is None and threshold == 0:
            return _nn.leaky_relu(x, alpha=alpha)
        negative_part = _nn.relu(-x + threshold) if threshold != 0 else _nn.relu(-x)
    clip_max = max_value is not None
    if threshold != 0:  # x above the threshold, else 0
        x = x * _math.cast(_math.greater(x, threshold), x.dtype)
    elif max_value == 6:  # TF's relu6
        x = _nn.relu6(x)
        clip_max = False
    else:
        x = _nn.relu(x)
    if clip_max:
        zero, cap = convert_to_tensor(0, dtype=x.dtype), convert_to_tensor(max_value, dtype=x.dtype)
        x = _math.clip_by_value(x, zero, cap)
    if alpha != 0.0:
        x -= convert_to_tensor(alpha, dtype=x.dtype) * negative_part
    return x


def elu(x, alpha=1.0):
    """Exponential linear unit: ``x`` for ``x > 0``, ``alpha * (exp(x) - 1)`` otherwise.

    Example:
        >>> import companion as tf
        >>> tf.keras.backend.elu(tf.constant([-1.0, 2.0]), alpha=0.5).numpy().round(4)
        array([-0.3161,  2.    ], dtype=float32)
    """
    x = convert_to_tensor(x)
    res = _nn.elu(x)
    if alpha == 1:
        return res
    return where(x > 0, res, alpha * res)


def sigmoid(x):
    """``1 / (1 + exp(-x))`` element-wise.

    Example:
        >>> import companion as tf
        >>> tf.keras.backend.sigmoid(tf.constant([0.0])).numpy()
        array([0.5], dtype=float32)
    """
    return _math.sigmoid(x)


def hard_sigmoid(x):
    """A piecewise-linear sigmoid: ``clip(0.2 * x + 0.5, 0, 1)`` (Keras's legacy slope).

    Example:
        >>> import companion as tf
        >>> tf.keras.backend.hard_sigmoid(tf.constant([-3.0, 0.0, 1.0, 3.0])).numpy()
        array([0. , 0.5, 0.7, 1. ], dtype=float32)
    """
    x = convert_to_tensor(x)
    point_two, point_five = convert_to_tensor(0.2, dtype=x.dtype), convert_to_tensor(0.5, dtype=x.dtype)
    x = _math.add(_math.multiply(x, point_two), point_five)
    return _math.clip_by_value(x, 0.0, 1.0)


def tanh(x):
    """The hyperbolic tangent element-wise.

    Example:
        >>> import companion as tf
        >>> tf.keras.backend.tanh(tf.constant([0.0])).numpy()
        array([0.], dtype=float32)
    """
    return _math.tanh(x)


def softplus(x):
    """``log(exp(x) + 1)`` element-wise.

    Example:
        >>> import companion as tf
        >>> tf.keras.backend.softplus(tf.constant([0.0])).numpy()
        array([0.6931472], dtype=float32)
    """
    return _math.softplus(x)


def softsign(x):
    """``x / (abs(x) + 1)`` element-wise.

    Example:
        >>> import companion as tf
        >>> tf.keras.backend.softsign(tf.constant([1.0, -3.0])).numpy()
        array([ 0.5 , -0.75], dtype=float32)
    """
    return _math.softsign(x)


def softmax(x, axis=-1):
    """The softmax of ``x`` along ``axis`` (an int, or a tuple of axes normalized together).

    Raises:
        ValueError: ``x`` has rank 0 or 1 (Keras's legacy softmax needs a batch axis).

    Example:
        >>> import companion as tf
        >>> tf.keras.backend.softmax(tf.constant([[0.0, 0.0, 0.6931472]])).numpy()
        array([[0.25, 0.25, 0.5 ]], dtype=float32)
    """
    x = convert_to_tensor(x)
    if x.shape.rank is not None and x.shape.rank <= 1:
        raise ValueError(f"Cannot apply softmax to a tensor that is 1D (or a scalar): it needs a batch axis "
                         f"and a class axis. Received input of shape {x.shape}: {x}")
    if isinstance(axis, int):
        return _nn.softmax(x, axis=axis)
    numerator = _math.exp(x - _math.reduce_max(x, axis=axis, keepdims=True))
    return numerator / _math.reduce_sum(numerator, axis=axis, keepdims=True)
