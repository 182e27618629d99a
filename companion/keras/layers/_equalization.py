"""`Equalization`: histogram equalization of each channel, over all the images of the batch (Keras 3)."""

import jax.numpy as jnp

from companion._core._op import op
from companion._ops._math import cast
from companion.keras.layers._conv import data_format_name
from companion.keras.layers._layer import Layer
from companion.keras.layers._training_value import select, training_value
from companion.keras.layers._value_range import checked_value_range


@op("histogram_equalization", static=("bins", "value_range", "channel_axis"))
def _equalize(images, bins, value_range, channel_axis):
    low, high = value_range
    channels = []
    for i in range(images.shape[channel_axis]):
        channel = jnp.take(images, i, axis=channel_axis)
        scale = 255.0 / (high - low)  # Keras rescales to 0-255 (an identity for the default range)
        channel = channel * jnp.asarray(scale, channel.dtype) + jnp.asarray(0.0 - low * scale, channel.dtype)
        values = channel.astype(jnp.float32)
        indices = jnp.clip(((values - 0.0) * (bins - 1) / 255.0).astype(jnp.int32), 0, bins - 1)
        hist = jnp.bincount(indices.ravel(), length=bins)
        cdf = jnp.cumsum(hist).astype(jnp.int32)
        cdf_min = cdf[jnp.argmax(cdf > 0)]
        denominator = cdf[-1] - cdf_min
        denominator = jnp.where(denominator == 0, 1, denominator)
        lookup = ((cdf - cdf_min) * 255).astype(jnp.float32) / denominator.astype(jnp.float32)
        lookup = jnp.clip(jnp.round(lookup), 0, 255)
        positions = jnp.clip((channel / 255.0) * (bins - 1), 0, bins - 1).astype(jnp.int32)
        equalized = jnp.where(jnp.count_nonzero(hist) <= 1, channel, lookup[positions].astype(channel.dtype))
        back = (high - low) / 255.0
        channels.append(equalized * jnp.asarray(back, channel.dtype) + jnp.asarray(low, channel.dtype))
    return jnp.stack(channels, axis=channel_axis).astype(images.dtype)


class Equalization(Layer):
    """Keras 3's ``Equalization``: maps each channel's values through the cumulative histogram
    (``bins`` bins over ``value_range``) so they spread evenly over the range. As in Keras, the
    histogram of a channel counts all the images of the batch together, a channel whose values
    fall in one bin is left as it is, and the layer acts only while training (called directly,
    it trains; ``predict`` leaves the images unchanged).

    Example:
        >>> import companion as tf
        >>> images = tf.constant([[[[0.0], [50.0]], [[50.0], [200.0]]]])
        >>> tf.keras.layers.Equalization()(images)[0, :, :, 0].numpy()
        array([[  0., 170.],
               [170., 255.]], dtype=float32)
    """

    def __init__(self, value_range=(0, 255), bins=256, data_format=None, **kwargs):
        super().__init__(**kwargs)
        if isinstance(bins, bool) or not isinstance(bins, int) or bins < 1:
            raise ValueError(f"`bins` must be a positive integer. Received: bins={bins!r}")
        self.bins = bins
        self.value_range = checked_value_range(value_range)
        self.data_format = data_format_name(data_format)

    def call(self, inputs, training=True):
        images = cast(inputs, self._dtype)
        training = training_value(True if training is None else training)
        if training is False:
            return images
        axis = images.ndim - 3 if self.data_format == "channels_first" else images.ndim - 1
        value_range = (float(self.value_range[0]), float(self.value_range[1]))
        return select(training, lambda: _equalize(images, bins=self.bins, value_range=value_range,
                                                  channel_axis=axis), lambda: images)

    def compute_output_shape(self, input_shape):
        return input_shape

    def get_config(self):
        return {**super().get_config(), "data_format": self.data_format, "bins": self.bins,
                "value_range": self.value_range}
