"""Backend names: TensorFlow name scopes (`name_scope`) and Keras's per-prefix counters (`get_uid`)."""

from companion import name_scope as _name_scope


def name_scope(name):
    """TensorFlow's ``tf.name_scope(name)`` context manager (Keras weight paths are not affected).

    Example:
        >>> import companion as tf
        >>> with tf.keras.backend.name_scope("block"):
        ...     tf.get_current_name_scope()
        'block'
    """
    return _name_scope(name)


def get_uid(prefix=""):
    """The next number for ``prefix``: 1, then 2, ... (`clear_session` starts again).

    The counter is the one Keras names layers with, so after ``get_uid("dense")`` the next
    ``Dense`` layer is named ``dense_1``.

    Example:
        >>> import companion as tf
        >>> tf.keras.backend.clear_session()
        >>> tf.keras.backend.get_uid("block"), tf.keras.backend.get_uid("block")
        (1, 2)
    """
    # deferred: companion.keras.layers imports the backend at its top (layers._layer)
    from companion.keras.layers._naming import _NAME_COUNTS

    _NAME_COUNTS[prefix] = _NAME_COUNTS.get(prefix, 0) + 1
    return _NAME_COUNTS[prefix]
