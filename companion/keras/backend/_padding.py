"""Backend zero padding of sequences (`temporal_padding`), images and volumes (`spatial_*_padding`)."""

from companion import pad
from companion.keras.backend._config import checked_data_format


def _pairs(padding, count):
    try:
        ok = len(padding) == count and all(len(p) == 2 for p in padding)
    except TypeError:
        ok = False
    if not ok:
        raise ValueError(f"Expected `padding` to be a tuple of {count} tuples of 2 integers. "
                         f"Received: padding={padding}")
    return [list(p) for p in padding]


def temporal_padding(x, padding=(1, 1)):
    """Zeros added before and after the steps (axis 1) of a 3-D ``(batch, steps, features)`` ``x``.

    Raises:
        ValueError: ``padding`` is not 2 integers.

    Example:
        >>> import companion as tf
        >>> tf.keras.backend.temporal_padding(tf.ones([1, 2, 1]), (1, 2)).numpy()[0, :, 0]
        array([0., 1., 1., 0., 0.], dtype=float32)
    """
    if len(padding) != 2:
        raise ValueError(f"Expected `padding` to be a tuple of 2 integers. Received: padding={padding}")
    return pad(x, [[0, 0], [padding[0], padding[1]], [0, 0]])


def spatial_2d_padding(x, padding=((1, 1), (1, 1)), data_format=None):
    """Zeros around the rows and columns of 4-D images ``x``: ``((top, bottom), (left, right))``.

    Raises:
        ValueError: ``padding`` is not 2 pairs of integers, or an unknown ``data_format``.

    Example:
        >>> import companion as tf
        >>> tf.keras.backend.spatial_2d_padding(tf.ones([1, 1, 1, 1])).numpy()[0, :, :, 0]
        array([[0., 0., 0.],
               [0., 1., 0.],
               [0., 0., 0.]], dtype=float32)
    """
    pairs = _pairs(padding, 2)
    data_format = checked_data_format(data_format)
    if data_format == "channels_first":
        return pad(x, [[0, 0], [0, 0], *pairs])
    return pad(x, [[0, 0], *pairs, [0, 0]])


def spatial_3d_padding(x, padding=((1, 1), (1, 1), (1, 1)), data_format=None):
    """Zeros around the three spatial axes of 5-D volumes ``x``: three ``(before, after)`` pairs.

    Raises:
        ValueError: ``padding`` is not 3 pairs of integers, or an unknown ``data_format``.

    Example:
        >>> import companion as tf
        >>> tf.keras.backend.spatial_3d_padding(tf.ones([1, 1, 1, 1, 1]), ((0, 1), (1, 0), (0, 0))).shape
        TensorShape([1, 2, 2, 1, 1])
    """
    pairs = _pairs(padding, 3)
    data_format = checked_data_format(data_format)
    if data_format == "channels_first":
        return pad(x, [[0, 0], [0, 0], *pairs])
    return pad(x, [[0, 0], *pairs, [0, 0]])
