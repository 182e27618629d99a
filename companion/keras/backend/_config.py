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


_IMAGE_DATA_FORMAT = "channels_last"
_FLOAT_TYPES = ("bfloat16", "float16", "float32", "float64")


def set_floatx(value):
    """Sets the default float type; companion's Keras computes in ``'float32'`` only.

    Keras accepts ``'bfloat16'``, ``'float16'``, ``'float32'`` and ``'float64'``. companion's
    layers, losses and optimizers always create float32 weights, so only ``'float32'`` (the
    default, a no-op) is accepted: another float type raises NotImplementedError rather than
    silently computing in float32.

    Raises:
        ValueError: ``value`` is not one of Keras's float types.
        NotImplementedError: ``value`` is a float type other than ``'float32'``.

    Example:
        >>> import companion as tf
        >>> tf.keras.backend.set_floatx("float32"); tf.keras.backend.floatx()
        'float32'
    """
    value = str(value)
    if value not in _FLOAT_TYPES:
        raise ValueError(f"Unknown `floatx` value: {value!r}. Expected one of {set(_FLOAT_TYPES)}. "
                         f"Received: value={value!r}")
    if value != "float32":
        raise NotImplementedError(f"companion's Keras computes in float32 only, so set_floatx({value!r}) "
                                  "is not supported (cast the inputs and build the layers with "
                                  f"dtype={value!r} instead). Received: value={value!r}")


def image_data_format():
    """The default layout of image data: ``'channels_last'`` (``(batch, rows, cols, channels)``).

    Example:
        >>> import companion as tf
        >>> tf.keras.backend.image_data_format()
        'channels_last'
    """
    return _IMAGE_DATA_FORMAT


def set_image_data_format(data_format):
    """Sets the default image layout; companion's layers default to ``'channels_last'`` only.

    The backend's convolution, pooling and padding functions read the setting, but companion's
    Keras layers take ``data_format=None`` as ``'channels_last'`` always, so only
    ``'channels_last'`` is accepted: ``'channels_first'`` raises NotImplementedError (pass
    ``data_format='channels_first'`` to each layer or function instead).

    Raises:
        ValueError: ``data_format`` is neither ``'channels_first'`` nor ``'channels_last'``.
        NotImplementedError: ``data_format`` is ``'channels_first'``.

    Example:
        >>> import companion as tf
        >>> tf.keras.backend.set_image_data_format("channels_last")
        >>> tf.keras.backend.image_data_format()
        'channels_last'
    """
    value = str(data_format).lower()
    if value not in ("channels_first", "channels_last"):
        raise ValueError("The `data_format` argument must be one of {'channels_first', 'channels_last'}. "
                         f"Received: data_format={data_format!r}")
    if value != "channels_last":
        raise NotImplementedError("companion's Keras layers read data_format=None as 'channels_last' "
                                  "always, so the default cannot be changed to 'channels_first'; pass "
                                  "data_format='channels_first' to each layer or backend function. "
                                  f"Received: data_format={data_format!r}")


def backend():
    """The name of the backend Keras runs on: ``'tensorflow'`` (companion stands in for it).

    Example:
        >>> import companion as tf
        >>> tf.keras.backend.backend()
        'tensorflow'
    """
    return "tensorflow"


def checked_data_format(data_format):
    """``data_format``, or `image_data_format` when None; ValueError unless a Keras layout."""
    if data_format is None:
        data_format = image_data_format()
    if data_format not in ("channels_first", "channels_last"):
        raise ValueError(f"Unknown data_format: {data_format!r}. Expected 'channels_first' or "
                         f"'channels_last'. Received: data_format={data_format!r}")
    return data_format
