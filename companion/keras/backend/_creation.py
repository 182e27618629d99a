"""Backend constructors: constants, ranges, and zeros/ones/identity as Variables (Keras's legacy rule).

`zeros`, `ones` and `eye` return a `Variable` (a tensor when the shape has a 0 or None size),
as Keras's legacy backend does, so the result can be updated in place.
"""

from companion import as_dtype, cast, init_scope
from companion import constant as _constant
from companion import eye as _eye
from companion import ones as _ones
from companion import ones_like as _ones_like
from companion import range as _range
from companion import zeros as _zeros
from companion import zeros_like as _zeros_like
from companion.keras.backend._config import floatx
from companion.keras.backend._variables import variable


def constant(value, dtype=None, shape=None, name=None):
    """A constant tensor of ``value`` as ``dtype`` (`floatx` by default, even for integers).

    Example:
        >>> import companion as tf
        >>> tf.keras.backend.constant(2, shape=(2,)).numpy()
        array([2., 2.], dtype=float32)
    """
    if dtype is None:
        dtype = floatx()
    return _constant(value, dtype=dtype, shape=shape, name=name)


def arange(start, stop=None, step=1, dtype="int32"):
    """The numbers ``start, start + step, ...`` below ``stop`` (``0 .. start - 1`` without ``stop``).

    A negative ``start`` without ``stop`` gives an empty range. The range has the type of its
    arguments (int32 for ints, float32 for floats); it is cast to ``dtype`` unless that is
    ``'int32'``.

    Example:
        >>> import companion as tf
        >>> tf.keras.backend.arange(5).numpy()
        array([0, 1, 2, 3, 4], dtype=int32)
        >>> tf.keras.backend.arange(1, 7, 2, dtype="float32").numpy()
        array([1., 3., 5.], dtype=float32)
    """
    if stop is None and start < 0:
        start = 0
    result = _range(start, limit=stop, delta=step, name="arange")
    if dtype != "int32":
        result = cast(result, dtype)
    return result


def _variable_unless_empty(make, shape, dtype, name):
    with init_scope():
        if dtype is None:
            dtype = floatx()
        value = make(shape=shape, dtype=as_dtype(dtype), name=name)
        if all(value.shape.as_list()):
            return variable(value, dtype=dtype, name=name)
        return value


def zeros(shape, dtype=None, name=None):
    """A Variable of zeros of ``shape`` (a tensor if a size is 0).

    Example:
        >>> import companion as tf
        >>> v = tf.keras.backend.zeros((2, 3))
        >>> isinstance(v, tf.Variable), v.numpy().sum()
        (True, np.float32(0.0))
    """
    return _variable_unless_empty(_zeros, shape, dtype, name)


def ones(shape, dtype=None, name=None):
    """A Variable of ones of ``shape`` (a tensor if a size is 0).

    Example:
        >>> import companion as tf
        >>> tf.keras.backend.ones((2,), dtype="int32").numpy()
        array([1, 1], dtype=int32)
    """
    return _variable_unless_empty(_ones, shape, dtype, name)


def eye(size, dtype=None, name=None):
    """A Variable holding the ``size`` x ``size`` identity matrix.

    Example:
        >>> import companion as tf
        >>> tf.keras.backend.eye(2).numpy()
        array([[1., 0.],
               [0., 1.]], dtype=float32)
    """
    if dtype is None:
        dtype = floatx()
    return variable(_eye(size, dtype=as_dtype(dtype)), dtype, name)


def zeros_like(x, dtype=None, name=None):
    """Zeros shaped like ``x``, of ``x``'s dtype unless ``dtype`` is given.

    Example:
        >>> import companion as tf
        >>> tf.keras.backend.zeros_like(tf.constant([1, 2])).numpy()
        array([0, 0], dtype=int32)
    """
    return _zeros_like(x, dtype=dtype, name=name)


def ones_like(x, dtype=None, name=None):
    """Ones shaped like ``x``, of ``x``'s dtype unless ``dtype`` is given.

    Example:
        >>> import companion as tf
        >>> tf.keras.backend.ones_like(tf.constant([1, 2]), dtype="float32").numpy()
        array([1., 1.], dtype=float32)
    """
    return _ones_like(x, dtype=dtype, name=name)
