"""Backend element-wise math: the ``tf.keras.backend`` names over companion's ops, with Keras's rules."""

import numpy as np

from companion import math as _math
from companion._core._convert import convert_to_tensor


def square(x):
    """``x * x`` element-wise.

    Example:
        >>> import companion as tf
        >>> tf.keras.backend.square(tf.constant([-2.0, 3.0])).numpy()
        array([4., 9.], dtype=float32)
    """
    return _math.square(x)


def sqrt(x):
    """The square root element-wise, with negative inputs clipped to 0 first (as in Keras).

    Example:
        >>> import companion as tf
        >>> tf.keras.backend.sqrt(tf.constant([-1.0, 4.0])).numpy()
        array([0., 2.], dtype=float32)
    """
    x = convert_to_tensor(x)
    return _math.sqrt(_math.maximum(x, _math.cast(0, x.dtype)))


def maximum(x, y):
    """The element-wise maximum of ``x`` and ``y`` (broadcasting).

    Example:
        >>> import companion as tf
        >>> tf.keras.backend.maximum(tf.constant([1.0, 5.0]), 2.0).numpy()
        array([2., 5.], dtype=float32)
    """
    return _math.maximum(x, y)


def minimum(x, y):
    """The element-wise minimum of ``x`` and ``y`` (broadcasting).

    Example:
        >>> import companion as tf
        >>> tf.keras.backend.minimum(tf.constant([1.0, 5.0]), 2.0).numpy()
        array([1., 2.], dtype=float32)
    """
    return _math.minimum(x, y)


def abs(x):
    """The absolute value element-wise.

    Example:
        >>> import companion as tf
        >>> tf.keras.backend.abs(tf.constant([-1.5, 2.0])).numpy()
        array([1.5, 2. ], dtype=float32)
    """
    return _math.abs(x)


def exp(x):
    """``e ** x`` element-wise.

    Example:
        >>> import companion as tf
        >>> tf.keras.backend.exp(tf.constant([0.0])).numpy()
        array([1.], dtype=float32)
    """
    return _math.exp(x)


def log(x):
    """The natural logarithm element-wise.

    Example:
        >>> import companion as tf
        >>> tf.keras.backend.log(tf.constant([1.0])).numpy()
        array([0.], dtype=float32)
    """
    return _math.log(x)


def cos(x):
    """The cosine element-wise.

    Example:
        >>> import companion as tf
        >>> tf.keras.backend.cos(tf.constant([0.0])).numpy()
        array([1.], dtype=float32)
    """
    return _math.cos(x)


def sin(x):
    """The sine element-wise.

    Example:
        >>> import companion as tf
        >>> tf.keras.backend.sin(tf.constant([0.0])).numpy()
        array([0.], dtype=float32)
    """
    return _math.sin(x)


def sign(x):
    """-1, 0 or 1 element-wise, by the sign of ``x``.

    Example:
        >>> import companion as tf
        >>> tf.keras.backend.sign(tf.constant([-2.0, 0.0, 3.0])).numpy()
        array([-1.,  0.,  1.], dtype=float32)
    """
    return _math.sign(x)


def round(x):
    """Rounds to the nearest integer element-wise, halves to even (``2.5 -> 2``), as TensorFlow.

    Example:
        >>> import companion as tf
        >>> tf.keras.backend.round(tf.constant([0.5, 1.5, 2.5, -1.7])).numpy()
        array([ 0.,  2.,  2., -2.], dtype=float32)
    """
    return _math.round(x)


def pow(x, a):
    """``x ** a`` element-wise.

    Example:
        >>> import companion as tf
        >>> tf.keras.backend.pow(tf.constant([2.0, 3.0]), 2).numpy()
        array([4., 9.], dtype=float32)
    """
    return _math.pow(x, a)


def clip(x, min_value, max_value):
    """``x`` clipped to ``[min_value, max_value]``; a None bound is no bound.

    As in Keras, when both bounds are Python numbers and ``max_value < min_value``, everything
    becomes ``min_value``.

    Example:
        >>> import companion as tf
        >>> tf.keras.backend.clip(tf.constant([-2.0, 0.5, 3.0]), 0.0, 1.0).numpy()
        array([0. , 0.5, 1. ], dtype=float32)
        >>> tf.keras.backend.clip(tf.constant([-2.0, 3.0]), None, 1.0).numpy()
        array([-2.,  1.], dtype=float32)
    """
    if isinstance(min_value, (int, float)) and isinstance(max_value, (int, float)) and max_value < min_value:
        max_value = min_value
    if min_value is None:
        min_value = -np.inf
    if max_value is None:
        max_value = np.inf
    return _math.clip_by_value(x, min_value, max_value)
