"""The backend's global settings: the fuzz factor ``epsilon``, ``floatx`` and `clear_session`."""

_EPSILON = 1e-7


def epsilon():
    """The fuzz factor used to avoid dividing by zero, ``1e-07`` unless `set_epsilon` changed it.

    Example:
        >>> import companion as tf
        >>> tf.keras.backend.epsilon()
        1e-07
    """
    return _EPSILON


def set_epsilon(value):
    """Sets the fuzz factor `epsilon` returns.

    Args:
        value: a float.

    Example:
        >>> import companion as tf
        >>> tf.keras.backend.set_epsilon(1e-5); tf.keras.backend.epsilon()
        1e-05
        >>> tf.keras.backend.set_epsilon(1e-7)
    """
    global _EPSILON
    _EPSILON = float(value)


def floatx():
    """The default float type, as a string: always ``'float32'`` (as in TensorFlow by default).

    Example:
        >>> import companion as tf
        >>> tf.keras.backend.floatx()
        'float32'
    """
    return "float32"


def clear_session():
    """Resets the state Keras keeps globally: here the layer names, so the next Dense is ``dense``.

    Example:
        >>> import companion as tf
        >>> tf.keras.backend.clear_session()
        >>> tf.keras.layers.Dense(2).name
        'dense'
    """
    # deferred: the layers are built on the backend (layers._layer imports backend._variable at its top)
    from companion.keras.layers import _naming

    _naming.reset_name_counts()
