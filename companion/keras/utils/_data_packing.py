"""`pack_x_y_sample_weight` / `unpack_x_y_sample_weight`: the ``(x, y, sample_weight)`` tuples a
custom ``train_step`` receives, packed and unpacked as Keras 3 does."""


def pack_x_y_sample_weight(x, y=None, sample_weight=None):
    """``x`` (or ``(x,)`` when ``x`` is itself a tuple or list) without ``y``; else ``(x, y)`` or
    ``(x, y, sample_weight)``. As in Keras, a ``sample_weight`` without ``y`` is dropped.

    Example:
        >>> import companion as tf
        >>> tf.keras.utils.pack_x_y_sample_weight(1, 2)
        (1, 2)
    """
    if y is None:
        return (x,) if isinstance(x, (tuple, list)) else x
    if sample_weight is None:
        return (x, y)
    return (x, y, sample_weight)


def unpack_x_y_sample_weight(data):
    """``(x, y, sample_weight)`` from ``x``, ``(x,)``, ``(x, y)`` or ``(x, y, sample_weight)`` (the
    missing ones None); what a custom ``train_step(self, data)`` starts with.

    Example:
        >>> import companion as tf
        >>> tf.keras.utils.unpack_x_y_sample_weight((1, 2))
        (1, 2, None)
    """
    if isinstance(data, list):
        data = tuple(data)
    if not isinstance(data, tuple):
        return (data, None, None)
    if len(data) == 1:
        return (data[0], None, None)
    if len(data) == 2:
        return (data[0], data[1], None)
    if len(data) == 3:
        return data
    raise ValueError("Data is expected to be in format `x`, `(x,)`, `(x, y)`, or `(x, y, sample_weight)`. "
                     f"Received a tuple of {len(data)} items: {data!r}")
