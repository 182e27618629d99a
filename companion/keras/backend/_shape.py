"""Backend shape queries: the static shape as a tuple, the rank, the dynamic shape, the size."""

import math

from companion import shape as _shape


def _static_shape(x, what):
    found = getattr(x, "shape", None)
    if found is None:
        raise AttributeError(f"{what}() expects a tensor, Variable or array (something with a `shape`). "
                             f"Received: x={x!r} of type {type(x).__name__}")
    return found


def int_shape(x):
    """The static shape of ``x`` as a tuple of ints (None for unknown axes), or None if the rank is unknown.

    Raises:
        AttributeError: ``x`` has no ``shape`` (e.g. a Python list).

    Example:
        >>> import companion as tf
        >>> tf.keras.backend.int_shape(tf.zeros([2, 3]))
        (2, 3)
        >>> tf.keras.backend.int_shape(tf.keras.Input(shape=(4,)))
        (None, 4)
    """
    shape = _static_shape(x, "int_shape")
    if isinstance(shape, tuple):
        return shape
    try:
        return tuple(shape.as_list())
    except ValueError:  # unknown rank
        return None


def ndim(x):
    """The rank of ``x`` (its number of axes), or None if unknown.

    Raises:
        AttributeError: ``x`` has no ``shape``.

    Example:
        >>> import companion as tf
        >>> tf.keras.backend.ndim(tf.zeros([2, 3]))
        2
    """
    shape = _static_shape(x, "ndim")
    return len(shape) if isinstance(shape, tuple) else shape.rank


def shape(x):
    """The dynamic shape of ``x``, an int32 tensor.

    Example:
        >>> import companion as tf
        >>> tf.keras.backend.shape(tf.zeros([2, 3])).numpy()
        array([2, 3], dtype=int32)
    """
    return _shape(x)


def count_params(x):
    """The number of elements of ``x`` (a weight's number of parameters), from its static shape.

    Raises:
        AttributeError: ``x`` has no ``shape``.
        TypeError: an axis of ``x`` has unknown size.

    Example:
        >>> import companion as tf
        >>> tf.keras.backend.count_params(tf.Variable(tf.zeros([2, 3])))
        6
    """
    dims = int_shape(x)
    if dims is None or None in dims:
        raise TypeError(f"count_params() needs a fully known shape. Received: x with shape {dims}")
    return math.prod(dims)
