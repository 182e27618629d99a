"""`SpatialDropout1D` / `2D` / `3D`: dropout of whole feature maps (channels) at once."""

from companion.keras.layers._conv import data_format_name
from companion.keras.layers._dropout import Dropout
from companion.keras.layers._input_spec import InputSpec


class SpatialDropout1D(Dropout):
    """Drops whole channels of a ``(batch, steps, channels)`` input: one draw per sample and channel.

    Neighbouring steps of a sequence are strongly correlated, so dropping single elements
    hardly regularizes; dropping a channel everywhere does. Kept channels are scaled by
    ``1 / (1 - rate)``; with ``training`` false or None the layer is the identity.

    Example:
        >>> import companion as tf
        >>> layer = tf.keras.layers.SpatialDropout1D(0.5, seed=1)
        >>> y = layer(tf.ones([2, 4, 3]), training=True).numpy()
        >>> bool((y == y[:, :1, :]).all())  # every step of a channel shares its fate
        True
    """

    def __init__(self, rate, seed=None, **kwargs):
        super().__init__(rate, noise_shape=(None, 1, None), seed=seed, **kwargs)
        self.input_spec = InputSpec(ndim=3)

    def get_config(self):
        config = super().get_config()
        config.pop("noise_shape")
        return config


class SpatialDropout2D(Dropout):
    """Drops whole feature maps of an image batch: one draw per sample and channel.

    ``data_format`` is ``'channels_last'`` (inputs ``(batch, rows, cols, channels)``, the
    default) or ``'channels_first'`` (``(batch, channels, rows, cols)``). Otherwise as
    `SpatialDropout1D`.

    Example:
        >>> import companion as tf
        >>> layer = tf.keras.layers.SpatialDropout2D(0.5, seed=1)
        >>> y = layer(tf.ones([2, 4, 4, 3]), training=True).numpy()
        >>> bool((y == y[:, :1, :1, :]).all())
        True
    """

    def __init__(self, rate, data_format=None, seed=None, **kwargs):
        self.data_format = data_format_name(data_format)
        shape = (None, 1, 1, None) if self.data_format == "channels_last" else (None, None, 1, 1)
        super().__init__(rate, noise_shape=shape, seed=seed, **kwargs)
        self.input_spec = InputSpec(ndim=4)

    def get_config(self):
        config = super().get_config()
        config.pop("noise_shape")
        return {**config, "data_format": self.data_format}


class SpatialDropout3D(Dropout):
    """Drops whole feature maps of a volume batch ``(batch, depth, rows, cols, channels)``: one draw
    per sample and channel; otherwise as `SpatialDropout2D`."""

    def __init__(self, rate, data_format=None, seed=None, **kwargs):
        self.data_format = data_format_name(data_format)
        shape = (None, 1, 1, 1, None) if self.data_format == "channels_last" else (None, None, 1, 1, 1)
        super().__init__(rate, noise_shape=shape, seed=seed, **kwargs)
        self.input_spec = InputSpec(ndim=5)

    def get_config(self):
        config = super().get_config()
        config.pop("noise_shape")
        return {**config, "data_format": self.data_format}
