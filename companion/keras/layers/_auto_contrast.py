"""`AutoContrast`: each image's values stretched so its minimum and maximum span ``value_range``."""

from companion._ops._math import cast, clip_by_value, is_nan
from companion._ops._reduce import reduce_max, reduce_min
from companion._ops._select import where
from companion.keras.layers._conv import data_format_name
from companion.keras.layers._layer import Layer
from companion.keras.layers._value_range import checked_value_range, transform_value_range


class AutoContrast(Layer):
    """Keras 3's ``AutoContrast``: per image and channel, ``(x - min) * 255 / (max - min)`` in the
    0-255 scale (inputs and outputs in ``value_range``); a constant channel (NaN) is left as it was.

    Images are ``(batch, height, width, channels)`` or one ``(height, width, channels)`` image;
    the layer applies in training and inference alike.

    Example:
        >>> import companion as tf
        >>> images = tf.constant([[[[10.0], [20.0]], [[30.0], [50.0]]]])
        >>> tf.keras.layers.AutoContrast()(images)[0, :, :, 0].numpy()
        array([[  0.  ,  63.75],
               [127.5 , 255.  ]], dtype=float32)
    """

    def __init__(self, value_range=(0, 255), data_format=None, **kwargs):
        super().__init__(**kwargs)
        self.value_range = checked_value_range(value_range)
        self.data_format = data_format_name(data_format)

    def call(self, inputs, training=True):
        original = cast(inputs, self._dtype)
        single = original.ndim == 3
        images = original[None] if single else original
        images = transform_value_range(images, self.value_range, (0, 255), self._dtype)
        low = reduce_min(images, axis=(1, 2), keepdims=True)
        high = reduce_max(images, axis=(1, 2), keepdims=True)
        scale = 255.0 / (high - low)
        results = images * scale + (-low * scale)
        results = clip_by_value(results, 0.0, 255.0)
        results = transform_value_range(results, (0, 255), self.value_range, self._dtype)
        results = results[0] if single else results
        return where(is_nan(results), original, results)

    def compute_output_shape(self, input_shape):
        return input_shape

    def get_config(self):
        return {**super().get_config(), "data_format": self.data_format, "value_range": self.value_range}
