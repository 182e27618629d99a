"""Backend upsampling by integer factors: images (`resize_images`) and volumes (`resize_volumes`)."""

from companion import convert_to_tensor, shape, transpose
from companion import image as _image
from companion.keras.backend._arrays import repeat_elements

_INTERPOLATIONS = ("area", "bicubic", "bilinear", "gaussian", "lanczos3", "lanczos5", "mitchellcubic",
                   "nearest")
_NOT_IMPLEMENTED = ("gaussian", "mitchellcubic")  # TF kernels companion's image.resize does not have


def _spatial_axes(data_format, count):
    if data_format == "channels_first":
        return list(range(2, 2 + count))
    if data_format == "channels_last":
        return list(range(1, 1 + count))
    raise ValueError(f"Invalid `data_format` argument: {data_format!r}. Expected 'channels_first' or "
                     f"'channels_last'. Received: data_format={data_format!r}")


def resize_images(x, height_factor, width_factor, data_format, interpolation="nearest"):
    """4-D images ``x`` resized to ``height_factor`` times their rows and ``width_factor`` their columns.

    ``data_format`` (``'channels_last'`` or ``'channels_first'``) is required; ``interpolation``
    is ``'nearest'`` (repeats pixels), ``'bilinear'``, ``'bicubic'``, ``'area'``, ``'lanczos3'``
    or ``'lanczos5'``.

    Raises:
        ValueError: an unknown ``data_format`` or ``interpolation``.
        NotImplementedError: ``interpolation`` is ``'gaussian'`` or ``'mitchellcubic'``.

    Example:
        >>> import companion as tf
        >>> x = tf.reshape(tf.range(4.0), [1, 2, 2, 1])
        >>> tf.keras.backend.resize_images(x, 2, 1, "channels_last").numpy()[0, :, :, 0]
        array([[0., 1.],
               [0., 1.],
               [2., 3.],
               [2., 3.]], dtype=float32)
    """
    rows, cols = _spatial_axes(data_format, 2)
    if interpolation not in _INTERPOLATIONS:
        listed = '"' + '", "'.join(_INTERPOLATIONS) + '"'
        raise ValueError(f'`interpolation` argument should be one of: {listed}. Received: "{interpolation}".')
    if interpolation in _NOT_IMPLEMENTED:
        raise NotImplementedError(f"resize_images: companion's image.resize has no {interpolation!r} kernel; "
                                  "use 'nearest', 'bilinear', 'bicubic', 'area', 'lanczos3' or 'lanczos5'. "
                                  f"Received: interpolation={interpolation!r}")
    x = convert_to_tensor(x)
    static = x.shape.as_list()[rows:cols + 1]
    if None in static:
        new_shape = shape(x)[rows:cols + 1] * convert_to_tensor([height_factor, width_factor], dtype="int32")
    else:
        new_shape = [static[0] * height_factor, static[1] * width_factor]
    if data_format == "channels_first":
        x = transpose(x, [0, 2, 3, 1])
    x = _image.resize(x, new_shape, method=interpolation)
    if data_format == "channels_first":
        x = transpose(x, [0, 3, 1, 2])
    return x


def resize_volumes(x, depth_factor, height_factor, width_factor, data_format):
    """5-D volumes ``x`` with each voxel repeated ``depth/height/width_factor`` times along its axes.

    Raises:
        ValueError: an unknown ``data_format``.

    Example:
        >>> import companion as tf
        >>> tf.keras.backend.resize_volumes(tf.ones([1, 1, 2, 2, 3]), 2, 1, 3, "channels_last").shape
        TensorShape([1, 2, 2, 6, 3])
    """
    depth, height, width = _spatial_axes(data_format, 3)
    output = repeat_elements(x, depth_factor, axis=depth)
    output = repeat_elements(output, height_factor, axis=height)
    return repeat_elements(output, width_factor, axis=width)
