"""`Pipeline`: layers applied one after another, as a single layer (Keras 3's preprocessing pipeline)."""

from companion.keras.layers._call_context import call_parameters
from companion.keras.layers._keras_mask import get_keras_mask
from companion.keras.layers._layer import Layer
from companion.keras.layers._serialization import deserialize, serialize
from companion.keras.layers._tracking import map_structure


class Pipeline(Layer):
    """Applies ``layers`` in sequence: each gets the previous one's outputs (and its Keras mask).

    Unlike a `Sequential` model, a pipeline is a plain layer, meant for preprocessing chains
    (with ``tf.data`` too). As in Keras, its ``training`` argument defaults to True: random
    augmentation layers in it augment unless called with ``training=False`` (``fit`` and
    ``predict`` pass the right value).

    Example:
        >>> import companion as tf
        >>> pipeline = tf.keras.layers.Pipeline([tf.keras.layers.Rescaling(2.0),
        ...                                      tf.keras.layers.Rescaling(1.0, offset=1.0)])
        >>> pipeline(tf.constant([1.0, 2.0])).numpy()
        array([3., 5.], dtype=float32)
    """

    def __init__(self, layers, name=None):
        super().__init__(name=name)
        if not isinstance(layers, (list, tuple)) or not all(isinstance(layer, Layer) for layer in layers):
            raise ValueError("`Pipeline` expects a list of Keras layers. Received: "
                             f"layers={layers!r}")
        self._pipeline_layers = list(layers)

    @property
    def layers(self):
        return self._pipeline_layers

    def build(self, input_shape):
        pass  # each layer builds on its first call

    def call(self, inputs, training=True, mask=None):
        training = True if training is None else training  # Keras: the signature's default
        outputs = inputs
        for layer in self._pipeline_layers:
            accepted = call_parameters(type(layer))
            kwargs = {}
            if "mask" in accepted:
                kwargs["mask"] = mask
            if "training" in accepted:
                kwargs["training"] = training
            outputs = layer(inputs, **kwargs)
            inputs = outputs
            mask = map_structure(get_keras_mask, outputs)
        return outputs

    def compute_output_shape(self, input_shape):
        for layer in self._pipeline_layers:
            input_shape = layer.compute_output_shape(input_shape)
        return input_shape

    def get_config(self):
        return {"layers": [serialize(layer) for layer in self._pipeline_layers], "name": self.name}

    @classmethod
    def from_config(cls, config, custom_objects=None):
        layers = config.get("layers")
        if not isinstance(layers, (list, tuple)):
            raise ValueError("`Pipeline` config must contain a `layers` key mapping to a list of serialized "
                             f"layers. Received config with layers={layers}.")
        config = {**config, "layers": [deserialize(layer, custom_objects) for layer in layers]}
        return cls(**config)
