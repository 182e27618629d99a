"""`Wrapper`: the base class of layers that wrap another layer (Keras 3's, e.g. `TimeDistributed`)."""

from companion.keras.layers._layer import Layer
from companion.keras.layers._serialization import deserialize, serialize


class Wrapper(Layer):
    """An abstract layer holding another layer, ``layer``, which its subclasses augment.

    `build` builds the wrapped layer (if not built yet) with the given shape; `get_config`
    stores the wrapped layer serialized under ``"layer"`` and `from_config` rebuilds it.
    Subclasses define `call` (and `compute_output_shape`).

    Example:
        >>> import companion as tf
        >>> class Doubled(tf.keras.layers.Wrapper):
        ...     def call(self, inputs):
        ...         return 2.0 * self.layer(inputs)
        >>> layer = Doubled(tf.keras.layers.Dense(1, kernel_initializer="ones"))
        >>> layer(tf.ones([1, 3])).numpy()
        array([[6.]], dtype=float32)
    """

    def __init__(self, layer, **kwargs):
        if not isinstance(layer, Layer):
            raise ValueError(f"Layer {layer} supplied to Wrapper isn't a supported layer type. Please ensure "
                             "wrapped layer is a valid Keras layer.")
        super().__init__(**kwargs)
        self.layer = layer

    def build(self, input_shape=None):
        if not self.layer.built:
            self.layer.build(input_shape)
            self.layer.built = True

    def get_config(self):
        return {**super().get_config(), "layer": serialize(self.layer)}

    @classmethod
    def from_config(cls, config, custom_objects=None):
        config = dict(config)
        return cls(deserialize(config.pop("layer"), custom_objects), **config)
