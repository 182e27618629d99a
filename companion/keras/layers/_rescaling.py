"""`Rescaling`: ``inputs * scale + offset``, e.g. pixels from [0, 255] to [0, 1]."""

from companion._ops._math import cast
from companion.keras.layers._layer import Layer


class Rescaling(Layer):
    """Multiplies the inputs by ``scale`` and adds ``offset`` (in the layer's dtype).

    Example:
        >>> import companion as tf
        >>> tf.keras.layers.Rescaling(1.0 / 255)(tf.constant([0, 255])).numpy()
        array([0., 1.], dtype=float32)
    """

    def __init__(self, scale, offset=0.0, **kwargs):
        super().__init__(**kwargs)
        self.supports_masking = True  # passes the input's mask on, as Keras 3
        self.scale, self.offset = scale, offset

    def call(self, inputs):
        inputs = cast(inputs, self.compute_dtype)
        return inputs * cast(self.scale, self.compute_dtype) + cast(self.offset, self.compute_dtype)

    def get_config(self):
        return {**super().get_config(), "scale": self.scale, "offset": self.offset}
