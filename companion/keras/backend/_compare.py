"""Backend comparisons: element-wise ``==``, ``!=``, ``>``, ``>=``, ``<``, ``<=`` as boolean tensors."""

from companion import math as _math


def equal(x, y):
    """``x == y`` element-wise (broadcasting), a bool tensor.

    Example:
        >>> import companion as tf
        >>> tf.keras.backend.equal(tf.constant([1, 2, 3]), tf.constant([2, 2, 2])).numpy()
        array([False,  True, False])
    """
    return _math.equal(x, y)


def not_equal(x, y):
    """``x != y`` element-wise (broadcasting), a bool tensor.

    Example:
        >>> import companion as tf
        >>> tf.keras.backend.not_equal(tf.constant([1, 2, 3]), tf.constant([2, 2, 2])).numpy()
        array([ True, False,  True])
    """
    return _math.not_equal(x, y)


def greater(x, y):
    """``x > y`` element-wise (broadcasting), a bool tensor.

    Example:
        >>> import companion as tf
        >>> tf.keras.backend.greater(tf.constant([1, 2, 3]), tf.constant([2, 2, 2])).numpy()
        array([False, False,  True])
    """
    return _math.greater(x, y)


def greater_equal(x, y):
    """``x >= y`` element-wise (broadcasting), a bool tensor.

    Example:
        >>> import companion as tf
        >>> tf.keras.backend.greater_equal(tf.constant([1, 2, 3]), tf.constant([2, 2, 2])).numpy()
        array([False,  True,  True])
    """
    return _math.greater_equal(x, y)


def less(x, y):
    """``x < y`` element-wise (broadcasting), a bool tensor.

    Example:
        >>> import companion as tf
        >>> tf.keras.backend.less(tf.constant([1, 2, 3]), tf.constant([2, 2, 2])).numpy()
        array([ True, False, False])
    """
    return _math.less(x, y)


def less_equal(x, y):
    """``x <= y`` element-wise (broadcasting), a bool tensor.

    Example:
        >>> import companion as tf
        >>> tf.keras.backend.less_equal(tf.constant([1, 2, 3]), tf.constant([2, 2, 2])).numpy()
        array([ True,  True, False])
    """
    return _math.less_equal(x, y)
