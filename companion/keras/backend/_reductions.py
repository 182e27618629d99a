"""Backend reductions and scans: sums, means, extremes, arg-extremes and cumulative ops over axes.

As in Keras, ``axis=None`` reduces every axis, `all`/`any` read their input as booleans, and
`mean`, `std` and `var` average booleans as `floatx` numbers.
"""

from companion import math as _math
from companion._core._convert import convert_to_tensor
from companion.keras.backend._config import floatx


def _floats_if_bool(x):
    x = convert_to_tensor(x)
    return _math.cast(x, floatx()) if x.dtype.is_bool else x


def sum(x, axis=None, keepdims=False):
    """The sum of ``x`` over ``axis`` (all axes when None).

    Example:
        >>> import companion as tf
        >>> tf.keras.backend.sum(tf.constant([[1, 2], [3, 4]]), axis=0).numpy()
        array([4, 6], dtype=int32)
    """
    return _math.reduce_sum(x, axis=axis, keepdims=keepdims)


def mean(x, axis=None, keepdims=False):
    """The mean of ``x`` over ``axis`` (all axes when None); booleans are averaged as float32.

    Example:
        >>> import companion as tf
        >>> tf.keras.backend.mean(tf.constant([[1.0, 2.0], [3.0, 4.0]]), axis=1).numpy()
        array([1.5, 3.5], dtype=float32)
    """
    return _math.reduce_mean(_floats_if_bool(x), axis=axis, keepdims=keepdims)


def prod(x, axis=None, keepdims=False):
    """The product of ``x`` over ``axis`` (all axes when None).

    Example:
        >>> import companion as tf
        >>> tf.keras.backend.prod(tf.constant([[1, 2], [3, 4]]), axis=1).numpy()
        array([ 2, 12], dtype=int32)
    """
    return _math.reduce_prod(x, axis=axis, keepdims=keepdims)


def max(x, axis=None, keepdims=False):
    """The largest value of ``x`` over ``axis`` (all axes when None).

    Example:
        >>> import companion as tf
        >>> tf.keras.backend.max(tf.constant([[1.0, 5.0], [3.0, 2.0]]), axis=0).numpy()
        array([3., 5.], dtype=float32)
    """
    return _math.reduce_max(x, axis=axis, keepdims=keepdims)


def min(x, axis=None, keepdims=False):
    """The smallest value of ``x`` over ``axis`` (all axes when None).

    Example:
        >>> import companion as tf
        >>> tf.keras.backend.min(tf.constant([[1.0, 5.0], [3.0, 2.0]]), axis=1, keepdims=True).numpy()
        array([[1.],
               [2.]], dtype=float32)
    """
    return _math.reduce_min(x, axis=axis, keepdims=keepdims)


def all(x, axis=None, keepdims=False):
    """Whether every element of ``x`` (read as a boolean: nonzero is True) is True over ``axis``.

    Example:
        >>> import companion as tf
        >>> tf.keras.backend.all(tf.constant([[1, 0], [2, 3]]), axis=1).numpy()
        array([False,  True])
    """
    return _math.reduce_all(_math.cast(x, "bool"), axis=axis, keepdims=keepdims)


def any(x, axis=None, keepdims=False):
    """Whether some element of ``x`` (read as a boolean: nonzero is True) is True over ``axis``.

    Example:
        >>> import companion as tf
        >>> tf.keras.backend.any(tf.constant([[0, 0], [0, 3]]), axis=1).numpy()
        array([False,  True])
    """
    return _math.reduce_any(_math.cast(x, "bool"), axis=axis, keepdims=keepdims)


def argmax(x, axis=-1):
    """The index (int64) of the largest value along ``axis`` (the last by default).

    Example:
        >>> import companion as tf
        >>> tf.keras.backend.argmax(tf.constant([[1.0, 5.0, 2.0], [7.0, 0.0, 1.0]])).numpy()
        array([1, 0])
    """
    return _math.argmax(x, axis)


def argmin(x, axis=-1):
    """The index (int64) of the smallest value along ``axis`` (the last by default).

    Example:
        >>> import companion as tf
        >>> tf.keras.backend.argmin(tf.constant([[1.0, 5.0, 2.0], [7.0, 0.0, 1.0]])).numpy()
        array([0, 1])
    """
    return _math.argmin(x, axis)


def std(x, axis=None, keepdims=False):
    """The (population) standard deviation of ``x`` over ``axis``; booleans count as float32.

    Example:
        >>> import companion as tf
        >>> tf.keras.backend.std(tf.constant([1.0, 2.0, 3.0, 4.0])).numpy()
        np.float32(1.118034)
    """
    return _math.reduce_std(_floats_if_bool(x), axis=axis, keepdims=keepdims)


def var(x, axis=None, keepdims=False):
    """The (population) variance of ``x`` over ``axis``; booleans count as float32.

    Example:
        >>> import companion as tf
        >>> tf.keras.backend.var(tf.constant([[1.0, 3.0], [2.0, 2.0]]), axis=1).numpy()
        array([1., 0.], dtype=float32)
    """
    return _math.reduce_variance(_floats_if_bool(x), axis=axis, keepdims=keepdims)


def cumsum(x, axis=0):
    """The running sum of ``x`` along ``axis`` (the first by default).

    Example:
        >>> import companion as tf
        >>> tf.keras.backend.cumsum(tf.constant([1, 2, 3])).numpy()
        array([1, 3, 6], dtype=int32)
    """
    return _math.cumsum(x, axis=axis)


def cumprod(x, axis=0):
    """The running product of ``x`` along ``axis`` (the first by default).

    Example:
        >>> import companion as tf
        >>> tf.keras.backend.cumprod(tf.constant([[1, 2], [3, 4]]), axis=1).numpy()
        array([[ 1,  2],
               [ 3, 12]], dtype=int32)
    """
    return _math.cumprod(x, axis=axis)
