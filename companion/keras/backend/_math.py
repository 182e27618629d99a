"""Backend math: the ``tf.keras.backend`` names over companion's ops, with Keras's extra rules."""

from companion import math as _math
from companion._core._convert import convert_to_tensor


def mean(x, axis=None, keepdims=False):
    """The mean of ``x`` over ``axis`` (all axes when None); booleans are averaged as float32.

    Example:
        >>> import companion as tf
        >>> tf.keras.backend.mean(tf.constant([[1.0, 2.0], [3.0, 4.0]]), axis=1).numpy()
        array([1.5, 3.5], dtype=float32)
    """
    x = convert_to_tensor(x)
    if x.dtype.is_bool:
        x = _math.cast(x, "float32")
    return _math.reduce_mean(x, axis=axis, keepdims=keepdims)


def sum(x, axis=None, keepdims=False):
    """The sum of ``x`` over ``axis`` (all axes when None).

    Example:
        >>> import companion as tf
        >>> tf.keras.backend.sum(tf.constant([[1, 2], [3, 4]]), axis=0).numpy()
        array([4, 6], dtype=int32)
    """
    return _math.reduce_sum(x, axis=axis, keepdims=keepdims)


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
